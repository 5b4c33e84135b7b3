"""The names of the programs, headers and libraries the C toolchain looks up by name that no
system folder's listing gives (``toolnames`` guards them in a folder a toolchain value names
that a call runs in): gcc's programs and each version's, those it finds by the target's name,
the headers the system's headers ask for that a system may lack, the name services glibc
loads (issue 29; sessions 55, 56)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The programs and files gcc's driver finds in its prefixes' folders (``-B``,
#: ``COMPILER_PATH``, ``GCC_EXEC_PREFIX``: its programs, linker, plugin) and the toolchain's
#: other programs (binutils', llvm's, each gcc and clang version's).
PROGRAMS: Final = (
    "as", "ld", "ld.bfd", "ld.gold", "ld.lld", "ld.mold", "collect-ld", "real-ld", "collect2",
    "cc1", "cc1plus", "cc1obj", "cc1objplus", "f951", "gnat1", "d21", "go1", "lto1",
    "lto-wrapper", "lto-dump", "liblto_plugin.so", "liblto_plugin.so.0", "g++-mapper-server",
    "cc", "c89", "c99", "clang", "clang++", "lld", "ar", "nm", "ranlib", "strip", "objcopy",
    "objdump", "readelf", "size", "strings", "addr2line", "elfedit", "gprof", "c++filt", "dwp",
    "pkg-config", "gdb", "ldd", "make", "windres", "windmc", "dlltool", "dllwrap", "gold",
    "gnatmake", "gnatbind", "gnatlink", "gdc", "gccgo", "gm2", "llvm-ar", "llvm-nm",
    "llvm-objcopy", "llvm-objdump", "llvm-ranlib", "llvm-readelf", "llvm-strip", "llvm-size",
    "llvm-as", "llvm-link", "llvm-config", "clang-cpp",
    # gcc's programs and each version's name (Debian's gcc-12, clang-15: `$(CROSS_COMPILE)gcc-12`)
    *(f"{name}{version}" for name in ("gcc", "g++", "c++", "cpp", "gfortran", "gcc-ar",
                                      "gcc-nm", "gcc-ranlib", "gcov", "gcov-dump", "gcov-tool",
                                      "lto-dump", "clang", "clang++", "clang-cpp")
      for version in ("", *(f"-{v}" for v in range(4, 26)))))
#: The programs gcc's driver (and a Makefile) finds by the target's name in a prefix's folder
#: (``x86_64-linux-gnu-as``: ``/usr/lib/gcc``'s machines before each).
TARGETED: Final = ("as", "ld", "ld.bfd", "ld.gold", "ar", "nm", "ranlib", "strip", "objcopy",
                    "objdump", "readelf", "gcc", "g++", "c++", "cpp", "gfortran", "gcc-ar",
                    "gcc-nm", "gcc-ranlib", "windres", "dlltool", "pkg-config")
#: The name services glibc loads by name (``libnss_<service>.so.2``) from a program's run
#: path where ``/etc/nsswitch.conf`` names them (s56-greview2 N2): those it names, and these.
NSS: Final = ("files", "dns", "db", "nis", "nisplus", "compat", "hesiod", "systemd",
               "mymachines", "resolve", "myhostname", "sss", "ldap", "winbind", "wins", "mdns",
               "mdns4", "mdns6", "mdns_minimal", "mdns4_minimal", "mdns6_minimal",
               "extrausers", "altfiles", "cache", "libvirt", "libvirt_guest", "docker")
#: The headers the system's own headers ask for by ``__has_include`` that a system may lack,
#: taken from the first folder of the search holding them (``grep -rhoE '__has_include(_next)?
#: *\( *[<"][^>"]*' /usr/include``: libstdc++ 12's ``<tbb/tbb.h>``, which makes ``<execution>``
#: read ``<tbb/…>``: a folder whole; node's ``v8-gn.h``; s56-greview2 B1).
ASKED: Final = ("tbb", "ws2tcpip.h", "v8-gn.h", "sys/single_threaded.h", "stacktrace",
                "pstl/pstl_config.h")


def nss_modules() -> list[str]:
    """The name services' libraries glibc may load by name (``NSS``, and each service
    ``/etc/nsswitch.conf`` names)."""
    try:
        with open("/etc/nsswitch.conf", encoding="utf-8", errors="replace") as f:
            text = f.read(65536)
    except OSError:
        text = ""
    services = {w for line in text.splitlines() if ":" in line and line[:1] != "#"
                for w in line.partition(":")[2].partition("#")[0].split() if w[:1] != "["}
    return [f"libnss_{s}.so.2" for s in sorted({*NSS, *services})]

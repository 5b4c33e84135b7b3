"""The allow-lists ``pathcode`` reads a conftest or test module by (issue 29, session 61): the
modules it may import and, of each, the names it may use (each a function, class or datum
reaching no namespace by a string: not ``os.sys``, ``string.Formatter``, ``mock.patch``,
``operator.attrgetter``, ``pytest.importorskip``); the fixtures and hook arguments pytest may
hand its functions (pytest's own objects, whose attributes that move ``sys.path`` or reach
another namespace by a string are ``MOVERS``); the attributes of any value refused."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    import ast
    from typing import Final


class Refused(Exception):
    """A shape the allow-list does not read."""


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Each module a read module may import (``import os``, ``from os import path``), with the
#: names of it the module may use; ``pytest.mark``'s every name (a mark). A name that is a
#: module of the table (``os.path``) is read by that module's entry.
MODULES: Final[dict[str, frozenset[str] | None]] = {
    "__future__": _names("annotations"),
    "os": _names("""path environ getcwd sep linesep pathsep extsep listdir makedirs mkdir remove
        unlink rename replace walk scandir stat lstat getenv getpid name devnull fspath chmod
        rmdir removedirs symlink readlink access R_OK W_OK X_OK F_OK curdir pardir cpu_count
        urandom utime umask getuid getgid fsencode fsdecode PathLike chdir kill getppid
        link truncate get_terminal_size terminal_size"""),
    "os.path": _names("""abspath basename dirname exists isabs isdir isfile islink join normpath
        realpath relpath split splitext expanduser expandvars getsize getmtime getctime
        getatime sep commonpath commonprefix samefile lexists normcase splitdrive ismount
        curdir pardir"""),
    "sys": _names("""platform version_info version maxsize byteorder hexversion executable
        implementation stdout stderr stdin getrecursionlimit getdefaultencoding
        getfilesystemencoding float_info maxunicode flags exit"""),
    "re": _names("""compile match search fullmatch sub subn split findall finditer escape
        IGNORECASE I MULTILINE M DOTALL S VERBOSE X ASCII A UNICODE U Pattern Match error"""),
    "json": _names("loads dumps load dump JSONDecodeError JSONEncoder JSONDecoder"),
    "math": _names("""pi e inf nan tau isclose isnan isinf isfinite sqrt floor ceil log log10
        log2 exp fabs pow sin cos tan atan2 fsum gcd prod trunc copysign hypot radians
        degrees comb factorial"""),
    "string": _names("""ascii_letters ascii_lowercase ascii_uppercase digits hexdigits
        octdigits punctuation printable whitespace"""),
    "textwrap": _names("dedent indent wrap fill shorten"),
    "itertools": _names("""chain product permutations combinations
        combinations_with_replacement count cycle repeat islice groupby zip_longest
        accumulate takewhile dropwhile filterfalse tee compress pairwise"""),
    "functools": _names("""partial wraps lru_cache cache total_ordering cached_property
        partialmethod update_wrapper cmp_to_key"""),
    "collections": _names("OrderedDict defaultdict Counter namedtuple deque ChainMap abc"),
    "collections.abc": _names("""Mapping MutableMapping Sequence MutableSequence Iterable
        Iterator Generator Callable Set MutableSet Hashable Sized Container Collection
        AsyncIterator AsyncIterable AsyncGenerator Awaitable Coroutine KeysView ValuesView
        ItemsView Reversible Buffer"""),
    "enum": _names("Enum IntEnum Flag IntFlag StrEnum auto unique"),
    "dataclasses": _names("""dataclass field fields asdict astuple replace
        FrozenInstanceError is_dataclass InitVar"""),
    "typing": _names("""TYPE_CHECKING Any Optional Union List Dict Tuple Set FrozenSet
        Iterable Iterator Callable Sequence Mapping MutableMapping Generator AsyncGenerator
        AsyncIterator Awaitable Coroutine Type TypeVar Generic Protocol Literal Final ClassVar
        cast overload NamedTuple TypedDict IO TextIO BinaryIO NoReturn Never Pattern Match
        ContextManager Hashable Sized Collection DefaultDict Counter Deque ParamSpec
        Concatenate Annotated TypeAlias Self AnyStr SupportsInt SupportsFloat"""),
    "pathlib": _names("Path PurePath PurePosixPath PosixPath PureWindowsPath"),
    "tempfile": _names("""mkdtemp mkstemp TemporaryDirectory NamedTemporaryFile gettempdir
        TemporaryFile SpooledTemporaryFile"""),
    "shutil": _names("""copy copy2 copyfile copytree copymode copystat rmtree move which
        disk_usage get_terminal_size make_archive unpack_archive"""),
    "subprocess": _names("""run check_call check_output call Popen PIPE STDOUT DEVNULL
        CalledProcessError TimeoutExpired CompletedProcess SubprocessError"""),
    "io": _names("""StringIO BytesIO TextIOWrapper BufferedReader BufferedWriter IOBase
        UnsupportedOperation SEEK_SET SEEK_CUR SEEK_END"""),
    "time": _names("""time sleep monotonic perf_counter strftime gmtime localtime mktime
        time_ns process_time timezone tzname struct_time strptime monotonic_ns"""),
    "datetime": _names("datetime date time timedelta timezone tzinfo MINYEAR MAXYEAR UTC"),
    "random": _names("""random randint choice choices shuffle sample seed Random uniform
        randrange getrandbits"""),
    "decimal": _names("Decimal getcontext localcontext InvalidOperation ROUND_HALF_UP"),
    "fractions": _names("Fraction"),
    "uuid": _names("uuid1 uuid3 uuid4 uuid5 UUID NAMESPACE_DNS NAMESPACE_URL"),
    "hashlib": _names("md5 sha1 sha224 sha256 sha384 sha512 blake2b blake2s new"),
    "base64": _names("""b64encode b64decode urlsafe_b64encode urlsafe_b64decode b32encode
        b32decode b16encode b16decode encodebytes decodebytes standard_b64encode
        standard_b64decode"""),
    "contextlib": _names("""contextmanager asynccontextmanager suppress redirect_stdout
        redirect_stderr ExitStack AsyncExitStack closing nullcontext AbstractContextManager
        chdir"""),
    "warnings": _names("warn catch_warnings simplefilter filterwarnings resetwarnings"),
    "logging": _names("""getLogger DEBUG INFO WARNING WARN ERROR CRITICAL NOTSET basicConfig
        Logger Handler StreamHandler FileHandler NullHandler Formatter LogRecord
        captureWarnings disable getLevelName debug info warning error exception critical"""),
    "glob": _names("glob iglob escape"),
    "fnmatch": _names("fnmatch fnmatchcase filter translate"),
    "platform": _names("""system machine python_implementation python_version release
        platform architecture node mac_ver uname python_version_tuple"""),
    "struct": _names("pack unpack calcsize Struct unpack_from pack_into error"),
    "errno": None, "stat": None, "signal": None,  # (their upper-case names: constants)
    "abc": _names("ABC ABCMeta abstractmethod"),
    "numbers": _names("Number Integral Real Complex Rational"),
    "copy": _names("copy deepcopy"),
    "pprint": _names("pprint pformat"),
    "csv": _names("""reader writer DictReader DictWriter QUOTE_ALL QUOTE_MINIMAL QUOTE_NONE
        QUOTE_NONNUMERIC excel Error"""),
    "zipfile": _names("ZipFile ZipInfo ZIP_DEFLATED ZIP_STORED is_zipfile BadZipFile"),
    "tarfile": _names("open TarFile TarInfo is_tarfile"),
    "gzip": _names("open compress decompress GzipFile"),
    "socket": _names("""socket AF_INET AF_INET6 AF_UNIX SOCK_STREAM SOCK_DGRAM SOL_SOCKET
        SO_REUSEADDR gethostname create_connection timeout error gaierror getaddrinfo
        socketpair SHUT_RDWR gethostbyname has_ipv6"""),
    "threading": _names("""Thread Lock RLock Event Condition Semaphore BoundedSemaphore Timer
        Barrier current_thread main_thread get_ident local active_count"""),
    "asyncio": _names("""run sleep gather wait wait_for get_event_loop new_event_loop
        set_event_loop create_task Event Lock Queue TimeoutError CancelledError Future
        ensure_future iscoroutinefunction iscoroutine Semaphore get_running_loop
        start_server open_connection Task shield all_tasks current_task
        run_coroutine_threadsafe timeout TaskGroup Condition"""),
    "unittest": _names("""TestCase IsolatedAsyncioTestCase skip skipIf skipUnless
        expectedFailure SkipTest mock"""),
    "unittest.mock": _names("""Mock MagicMock NonCallableMock NonCallableMagicMock AsyncMock
        PropertyMock call ANY sentinel DEFAULT mock_open create_autospec seal"""),
    "pytest": _names("""mark raises fixture param approx skip xfail fail warns deprecated_call
        exit FixtureRequest MonkeyPatch TempPathFactory TempdirFactory CaptureFixture
        LogCaptureFixture Config Parser OptionGroup Item Session Metafunc ExceptionInfo
        UsageError ExitCode File Collector Function hookimpl
        hookspec RaisesGroup RaisesExc WarningsRecorder Cache Stash StashKey TestReport
        CollectReport CallInfo version_tuple FixtureDef"""),
    "pytest.mark": None,  # (every name a mark)
}
#: The modules of ``MODULES`` whose every name is read as a mark's or a constant's (``None``).
UPPER: Final = frozenset(("errno", "stat", "signal"))
#: The fixtures pytest itself gives and the arguments of its hooks and of xunit's setup
#: functions (their objects pytest's own, whose movers are ``MOVERS``), beside ``self`` and
#: ``cls``: a test's, fixture's or hook's argument of another name is a plugin's fixture
#: (``mocker``: ``mocker.patch('sys.path', …)``) unless the project's own files define it.
PARAMETERS: Final = _names("""self cls tmp_path tmp_path_factory tmpdir tmpdir_factory capsys
    capsysbinary capfd capfdbinary caplog recwarn monkeypatch request pytestconfig
    record_property record_testsuite_property record_xml_attribute cache doctest_namespace
    config early_config parser args item items session metafunc path file_path
    collection_path module_path parent fspath report call nextitem exitstatus
    terminalreporter excinfo node collector name obj fixturedef pyfuncitem location nodeid
    when startdir start_path warning_message deselected module method function""")
#: The attributes of any value refused: those of pytest's objects that put a folder on
#: ``sys.path`` or import by a name (``syspath_prepend``, ``pyimport``, ``import_plugin``,
#: ``getfixturevalue``, a collector's ``from_parent``…), run text as code (``Frame.eval``,
#: ``exec_``), patch by a dotted string, and the modules that reach them (``os.sys``,
#: ``request.module.sys``).
MOVERS: Final = _names("""sys site syspath_prepend syspathinsert pyimport import_path
    addsitedir import_plugin consider_module consider_conftest consider_env
    consider_preparse pluginmanager getfixturevalue importorskip import_module patch exec_
    eval exec hook ihook perform_collect genitems from_parent runpytest runpytest_inprocess
    inline_run inline_genitems getmodulecol getitem getitems main modules path_hooks
    meta_path path_importer_cache importlib pkgutil runpy builtins gc inspect operator
    set_trace pytester testdir Pytester Testdir module obj""")
#: The dunder attributes a read module may name beside ``exactlists.DATA``'s.
DUNDERS: Final = _names("""__init__ __class__ __qualname__ __module__ __enter__ __exit__
    __aenter__ __aexit__ __call__ __name__ __file__ __doc__ __version__ __all__""")
#: The names a function is run by pytest with fixtures for (``test_a``, ``setup_module``,
#: ``pytest_configure``, ``setUp``): its arguments are read by ``PARAMETERS``.
RUN_PREFIXES: Final = ("test", "setup", "teardown", "pytest_")
#: The attributes read only as a call's whose arguments ``pathreader.Reader._call`` reads
#: (a mark's ``skipif``/``xfail``: their conditions; ``setattr``: its object form).
CALLED: Final = frozenset(("setattr", "delattr", "addinivalue_line", "skipif", "xfail"))
#: The attributes of pytest's config a conftest may not name (its hooks run before the
#: collection: `config.args[:] = […]`, `config.option.doctestmodules = True`).
CONFIGURED: Final = frozenset(("args", "option", "inicfg", "invocation_params",
                              "known_args_namespace", "getini"))
#: Builtins a read module may name beside ``exactlists.BUILTINS`` (none reaches a namespace
#: by a string or runs text).
ALSO_BUILTINS: Final = frozenset(("super", "iter", "next", "map", "filter", "dir",
                                 "memoryview", "aiter", "anext", "NotImplemented"))
#: The attributes of any value that run text or set one by a string (``x.setattr`` is read
#: by its call: ``pathreader.Reader._call``).
RUNS: Final = frozenset(("eval", "exec", "compile", "globals", "locals", "vars",
                         "__import__", "breakpoint", "setattr", "delattr", "input", "help"))


def truth(node: ast.expr | None, modules: dict[str, str],
          truths: frozenset[str] = frozenset()) -> bool:
    """Whether ``node`` is a truth value by its shape: ``not``, a boolean constant or None, a
    boolean operation of such, an identity or membership test, a comparison of literals and
    listed modules' values (``sys.platform == 'win32'``; not an object's ``__eq__``, which
    may return a string: s61-greview G6f), a name of ``truths`` (each bound only so)."""
    import ast

    if isinstance(node, ast.Compare):
        return all(isinstance(o, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for o in node.ops) or \
            all(plain(o, modules) for o in [node.left, *node.comparators])
    return (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)) or (
        isinstance(node, ast.BoolOp) and all(truth(v, modules, truths) for v in node.values)) or (
        isinstance(node, ast.Constant) and node.value in (True, False, None)) or (
        isinstance(node, ast.Name) and node.id in truths)


def plain(node: ast.expr, modules: dict[str, str]) -> bool:
    """Whether ``node`` is a literal (a tuple of them) or a listed module's value
    (``sys.version_info[:2]``, ``platform.system()``)."""
    import ast

    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(plain(e, modules) for e in node.elts)
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and node.id in modules


def main_block(node: ast.AST) -> bool:
    """Whether ``node`` is a module's ``if __name__ == "__main__":``."""
    import ast

    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and isinstance(test, ast.Compare) and isinstance(
        test.left, ast.Name) and test.left.id == "__name__" and len(test.comparators) == 1 and \
        isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__"


def listed(module: str, name: str) -> bool:
    """Whether the listed ``module``'s ``name`` is one a read module may use."""
    names = MODULES[module]
    if names is None:
        return not name.startswith("_") and (module not in UPPER or name.isupper() or name in (
            "signal", "alarm", "getsignal", "strerror", "errorcode", "S_ISDIR", "S_ISREG",
            "S_ISLNK", "S_IMODE", "filemode"))
    return name in names


def value_attribute(attr: str, mine: bool, called: bool) -> None:
    """Refuses ``attr`` of a value (``mine``: ``self``'s or ``cls``'s; ``called``: the
    ``setattr``/``delattr`` a call's arguments were read for)."""
    from .exactlists import DATA, FRAMES

    if attr in MOVERS or attr.startswith(FRAMES) or (attr in RUNS and not called) or (
            attr[:2] == "__" and attr not in DUNDERS and attr not in DATA) or (
            attr[:1] == "_" and attr[:2] != "__" and not mine):
        raise Refused


def named(node: ast.expr) -> str:
    """The name ``node`` spells last (``pytest.fixture``: ``fixture``), or ``""``."""
    import ast

    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "") if \
        isinstance(node, ast.Name) else ""

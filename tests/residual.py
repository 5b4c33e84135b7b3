"""Review tests whose hole is left open, each with why: marked strict xfails at collection
(tests/conftest.py), so a fix shows as an unexpected pass. Keyed by the test's node id
without its parameters (every case of it) or with them (that case only)."""

from __future__ import annotations

#: docs/call-gate.md, "What is left": a plan granting code of the model's choosing grants
#: what that code does; the guard narrows what it can read there, and holds under plans that
#: name programs running no such code.
CODE_GRANT = ("residual (docs/call-gate.md, What is left): the plan grants code of the model's "
              "choosing (a tool-wide Bash, a shell or an interpreter), whose writes no reading "
              "of the command's words can bound")

OPEN: dict[str, str] = {
    # review s44-greview2: cases that need a tool-wide `Bash` (or an interpreter's) grant
    # (test_m3b_unshare_w_in_a_cluster: held since s54-sfix, unshare a folder writer of its
    # words: `-fw..` names the folder above the project)
    **{f"tests/gate/test_s44_greview2.py::{name}": CODE_GRANT for name in (
        "test_k4_prompt_expansion_of_a_positional_parameter",
        "test_m6_eval_after_a_reserved_word",
        "test_m7_dot_and_a_tab_runs_a_library",
        "test_k1b_a_readers_output_run_without_a_pipe",
        "test_k3b_inline_code_attached_to_its_option",
        "test_m4b_a_pattern_in_command_position_matches_cd",
        "test_m8_bash_env_moves_the_child",
    )},
    # review s44-greview (s44-gfix's OPEN lines): docs/call-gate.md, "What is left"
    "tests/gate/test_s44_greview.py::test_r3_make_dry_run_still_runs_its_makefiles_shell_calls":
        ("residual (docs/call-gate.md, What is left): a plan granting make's options grants "
         "running the makefiles they name, in every mode (-n evaluates $(shell ...))"),
    # session 57, s57-sfix (failing closed): npm's workspace options (-w, -ws,
    # --workspace=…) are not read, so a plan running them refuses every write, its own run too
    **{nodeid: ("cost (session 57, s57-sfix failing closed): npm's workspace options are not "
                "read (another package's scripts), so the plan's writes are refused and its "
                "own run, a writer of anything, is denied")
       for nodeid in ("tests/gate/test_s43_review.py::test_p1k_a_workspaces_node_modules_bin",
                      "tests/gate/test_s44_gfix.py::test_the_plans_own_run_and_a_plain_copy_"
                      "stay_allowed[npm run build -ws]")},
    # session 58, s58-mfix (an allow-list of what a collecting script may run): a script
    # running an interpreter but `node --test`, `bun test`, `deno test` refuses the plan's
    # writes, a file outside the project (`node /usr/bin/true`) too (docs/decisions.md)
    "tests/gate/test_s55_sfix.py::test_a_write_beside_keeps[script-naming-a-file]":
        ("cost (session 58, s58-mfix failing closed): a collecting script running an "
         "interpreter other than node --test, bun test or deno test refuses the plan's writes"),
}


def reason(nodeid: str) -> str | None:
    """Why the test ``nodeid`` is left open, or None."""
    return OPEN.get(nodeid) or OPEN.get(nodeid.split("[", 1)[0])

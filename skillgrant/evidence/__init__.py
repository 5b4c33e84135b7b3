"""Plans from evidence (issue 32): the calls a skill made, read from the audit log and the
runtimes' transcripts (``read``); the plan that covers them (``suggest``, ``candidates``); the
log decided again under a changed plan (``replay``); and the audit log's hash chain checked
(``chain``)."""

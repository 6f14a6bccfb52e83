"""The audit feature: the hash chain and its signatures, exports and their offline checks, the
audit report, and re-deciding a log."""

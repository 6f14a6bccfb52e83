"""Pages for people: the reference web client (/play) and the spec's pages (/openapi.yaml,
/docs)."""

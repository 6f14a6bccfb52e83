"""What the tests and the benches share: helpers that drive a real service (a Server-Sent
Events client, a throwaway database, the browser pages, the chaos scenarios). tests/ and bench/
both import from here, never from each other (a bench's own tests excepted: tests/bench/)."""

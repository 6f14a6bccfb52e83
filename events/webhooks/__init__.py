"""Webhooks: a player's notices sent, signed as the Standard Webhooks specification says, to
URLs the player registered (a mobile app's backend, to wake the app).

- addresses.py: where a webhook may be sent (the rules against request forgery);
- schedule.py: when a failed delivery is tried again, when an endpoint is disabled;
- signing.py: the signature headers, and each endpoint's secret sealed at rest;
- delivery.py: one POST to a checked address, and what came back;
- endpoints.py: a player's endpoints (register, list, remove, ping, attempts);
- sending.py: one attempt of one delivery, as a worker's job makes it;
- outgoing.py: the deliveries handed to RQ, handed again when lost, made and deleted;
- records.py: the endpoints, attempts and deliveries these return.

The deliveries themselves are written with the notices that cause them
(events/postgres/players.py), and relayed to RQ by the workers (workers/webhooks.py)
through outgoing.py.
"""

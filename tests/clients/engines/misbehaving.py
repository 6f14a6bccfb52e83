"""An engine that misbehaves as told by its argument: `illegal` answers an action the game
does not allow now, `garbage` writes lines that are not JSON, `dies` exits at its first
request."""

import json
import sys

MODE = sys.argv[1]

for line in sys.stdin:
    request = json.loads(line)
    if MODE == "dies":
        sys.exit(3)
    if MODE == "garbage":
        print("thinking... <not json>", flush=True)
        continue
    bogus = {"type": "pass_relics"}  # of the schema, but no trick game's turn allows it
    print(json.dumps({"id": request["id"], "action": bogus}), flush=True)

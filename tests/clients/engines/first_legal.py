"""A cardroom-bot engine: reads one request a line, answers with an action a line.
It picks a random legal template from its own seat's view and fills it in."""

import json
import random
import sys


def action_from(template):
    action = {"type": template["type"]}
    if "min" in template:  # a count between min and max
        action["count"] = random.randint(template["min"], template["max"])
    elif "count" in template and "cards" in template:  # that many of the cards
        action["cards"] = random.sample(template["cards"], template["count"])
    elif "cards" in template:  # one of the cards
        action["card"] = random.choice(template["cards"])
    return action


def main():
    for line in sys.stdin:
        request = json.loads(line)
        templates = request["view"]["you"]["legal_actions"]
        answer = {"id": request["id"], "action": action_from(random.choice(templates))}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()

"""Whether an Idempotency-Key looks random enough to guard what a retry with it returns.

A retry of `POST /games` with the same key and body gets the seat tokens again, so a key that
can be guessed (`aaaaaaaaaaaaaaaaaaaa`, the all-zero UUID, `user-12345-create-game`) hands the
table to whoever guesses it. No test can prove a string random; this one estimates how many
guesses a key made by hand would take, in bits, the way password meters do: a repeated
character, a step-one run (`12345`, `abcd`), a long number (a counter, an id, a timestamp) and
a pronounceable word each count for little, and a random key's characters for nearly their
alphabet's worth. It is tuned so that keys drawn by a generator pass (a random UUID, 22 or more
random base64url characters, 32 or more random hex digits: their rare refusals are measured in
tests/api/test_key_randomness.py) while keys made of words and counters do not.
"""

from __future__ import annotations

import math
import re

# A UUID in its usual text form: its hyphens carry nothing.
UUID_FORM = re.compile(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
HEX = re.compile(r"[0-9a-fA-F]+")
# What a person types in pieces: a Capitalized or lowercase word, an UPPERCASE run, a number,
# or one other character.
TOKEN = re.compile(r"[A-Z][a-z]+|[a-z]+|[A-Z]+|[0-9]+|[^A-Za-z0-9]")
WORD_BITS = 13.0  # a word: one of some thousands, maybe capitalized
NUMBER_BITS = 30.0  # a long number: guessed within a range (a counter, an id, a timestamp)
BOUNDARY_BITS = math.log2(3)  # which kind of piece comes next
SYMBOLS = 33  # printable characters that are neither letters nor digits
VOWELS = frozenset("aeiouy")

MIN_LENGTH = 22  # 22 base64url characters hold 132 bits
# The bits asked of a key of MIN_LENGTH, then for each character more, up to the most asked.
# A generator's keys sit far above this (a 22-character one scores about 115 on average).
BASE_BITS, BITS_PER_CHARACTER, MOST_BITS = 64.0, 4.0, 96.0


def is_random_enough(key: str) -> bool:
    """Whether `key` looks drawn by a generator (see the module's docstring)."""
    if len(key) < MIN_LENGTH:
        return False
    asked = min(MOST_BITS, BASE_BITS + BITS_PER_CHARACTER * (len(key) - MIN_LENGTH))
    return estimated_bits(key) >= asked


def estimated_bits(key: str) -> float:
    """About log2 of the guesses a key would take if it were made by hand."""
    body = key.replace("-", "") if UUID_FORM.fullmatch(key) else key
    if HEX.fullmatch(body) and not body.isdigit():  # all digits: a number, below
        return _hex_bits(body)
    tokens = TOKEN.findall(body)
    seen: set[str] = set()
    bits = sum(_token_bits(token, seen) for token in tokens)
    return bits + BOUNDARY_BITS * max(0, len(tokens) - 1)


def _token_bits(token: str, seen: set[str]) -> float:
    if token.isdigit():
        return min(_run_bits(token, 10), NUMBER_BITS)
    if token.isalpha():
        bits = _run_bits(token.lower(), 26) + (0.0 if token.islower() else 1.0)
        return min(bits, WORD_BITS) if _is_word_like(token) else bits
    if token in seen:  # a separator used again: nothing new
        return 1.0
    seen.add(token)
    return math.log2(SYMBOLS)


def _is_word_like(token: str) -> bool:
    """Lowercase or Capitalized, four letters or more, pronounceable: a vowel in every three
    letters and never three consonants in a row (random letters rarely are)."""
    if len(token) < 4 or not token[1:].islower():
        return False
    low = token.lower()
    vowels = sum(letter in VOWELS for letter in low)
    return 3 * vowels >= len(low) and not re.search(r"[^aeiouy]{3}", low)


def _run_bits(text: str, alphabet: int) -> float:
    """A run of one character, or a step-one sequence, costs its start and its length only."""
    if len(text) > 2 and (len(set(text)) == 1 or _steps_by_one(text)):
        return math.log2(alphabet) + math.log2(len(text)) + 1
    return len(text) * math.log2(alphabet)


def _steps_by_one(text: str) -> bool:
    steps = {ord(b) - ord(a) for a, b in zip(text, text[1:], strict=False)}
    return steps in ({1}, {-1})


def _hex_bits(body: str) -> float:
    """Hex digits at four bits each, but a run of one digit or a step-one sequence of three or
    more counts as one piece (`0000`, `0123`)."""
    bits, start = 0.0, 0
    while start < len(body):
        end = _piece_end(body, start)
        piece = body[start:end]
        bits += _run_bits(piece, 16) if len(piece) > 2 else 4.0 * len(piece)
        start = end
    return bits


def _piece_end(body: str, start: int) -> int:
    same = start + 1
    while same < len(body) and body[same] == body[start]:
        same += 1
    step = start + 1
    while step < len(body) and abs(ord(body[step]) - ord(body[step - 1])) == 1:
        step += 1
    return max(same, step)

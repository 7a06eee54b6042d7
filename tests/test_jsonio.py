"""The JSON Lines readers (nclue/core/jsonio.py; docs/schema.md#limits): a file read in blocks gives the rows,
line numbers, byte offsets and messages a whole-file read gives, wherever the block boundaries fall;
``iter_key`` gives each row's top-level value of one key, worked by hand on lines built to fool it; the depth
walk and the streaming hash against independent references."""

import hashlib
import json
import os

import pytest

from nclue.core import inputs, jsonio
from nclue.core.errors import InputError
from nclue.core.jsonio import ABSENT, depth, iter_jsonl, iter_key

ROWS = [{"a": 1, "text": "é" * 7 + "x"}, {"b": [1, {"c": "ü€𝄞"}], "flag": True}, {}, {"k": 'a\nb"q"\\'},
        {"long": "y" * 40, "n": -1.5e3}]


def _write(tmp_path, text, name="rows.jsonl"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return str(path)


def _at_line(data, number, text):
    """``data`` with ``text`` put at the start of line ``number``."""
    lines = data.split(b"\n")
    lines[number - 1] = text + lines[number - 1]
    return b"\n".join(lines)


def _lines(rows):
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n" for r in rows)


@pytest.mark.parametrize("block", [1, 2, 3, 7, 16, 64, 1 << 20])
def test_rows_are_the_same_whatever_the_block_size(tmp_path, monkeypatch, block):
    """Blocks smaller than a line (the buffer grows), boundaries inside a multi-byte character (each block
    ends at a newline, so no character is split), and one block for the whole file."""
    monkeypatch.setattr(jsonio, "READ_BLOCK", block)
    text = _lines(ROWS * 3)
    path = _write(tmp_path, text)
    assert list(iter_jsonl(path, "rows.jsonl")) == [(i + 1, json.loads(line)) for i, line in
                                                   enumerate(text.splitlines())]
    assert list(iter_jsonl(None, "rows.jsonl", text=text)) == list(iter_jsonl(path, "rows.jsonl"))


@pytest.mark.parametrize("block", [1, 5, 1 << 20])
@pytest.mark.parametrize("damage,message", [
    (lambda b: _at_line(b, 3, b"\r"), "rows.jsonl:3: carriage return found"),
    (lambda b: b[:-1], "rows.jsonl:15: last line has no newline (truncated file?)"),
    (lambda b: b[: len(b) // 2], "last line has no newline (truncated file?)"),
    (lambda b: _at_line(b, 10, b"\n"), "rows.jsonl:10: blank line"),
    (lambda b: b + b"[1]\n", "rows.jsonl:16: each line must be a JSON object"),
    (lambda b: b + b'{"a":1}{"b":2}\n', "rows.jsonl:16: invalid JSON (extra data after the value)"),
    (lambda b: b + b'{"a":1,"a":2}\n', "rows.jsonl:16: invalid JSON (duplicate key 'a')"),
    (lambda b: b + b'{"a":NaN}\n', "rows.jsonl:16: invalid JSON (non-finite number NaN)"),
    (lambda b: b + b'{"a":\n1}\n', "rows.jsonl:16: invalid JSON"),
    (lambda b: b + b'{"a":' + b"[" * 70 + b"]" * 70 + b"}\n", "rows.jsonl:16: values nested deeper than 64 levels"),
    (lambda b: b"\xef\xbb\xbf" + b, "rows.jsonl:1: starts with a byte-order mark"),
])
def test_a_defect_is_named_at_its_line_wherever_the_blocks_fall(tmp_path, monkeypatch, block, damage, message):
    monkeypatch.setattr(jsonio, "READ_BLOCK", block)
    path = _write(tmp_path, damage(_lines(ROWS * 3).encode("utf-8")))
    with pytest.raises(InputError) as info:
        list(iter_jsonl(path, "rows.jsonl"))
    assert message in str(info.value)


@pytest.mark.parametrize("block", [1, 4, 1 << 20])
def test_a_bad_byte_is_named_by_its_file_offset_and_line(tmp_path, monkeypatch, block):
    monkeypatch.setattr(jsonio, "READ_BLOCK", block)
    data = _lines(ROWS * 3).encode("utf-8")
    at = data.index(b"\n", data.index(b"\n") + 1) + 3          # inside line 3
    path = _write(tmp_path, data[:at] + b"\xff" + data[at:])
    with pytest.raises(InputError) as info:
        list(iter_jsonl(path, "rows.jsonl"))
    assert str(info.value) == "rows.jsonl:3: not valid UTF-8 (byte offset %d)" % at
    path = _write(tmp_path, data + b'{"a":"\xe2\x82', "tail.jsonl")    # a cut character in an unfinished last line
    with pytest.raises(InputError) as info:
        list(iter_jsonl(path, "tail.jsonl"))
    assert str(info.value) == "tail.jsonl:16: not valid UTF-8 (byte offset %d)" % (len(data) + 6)


def test_the_line_and_file_limits_hold_in_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "READ_BLOCK", 4)
    monkeypatch.setattr(jsonio, "MAX_LINE_CHARS", 30)
    path = _write(tmp_path, '{"a":1}\n{"a":"%s"}\n' % ("x" * 30))
    with pytest.raises(InputError, match=r"rows.jsonl:2: line of 38 characters is longer than the 30-character"):
        list(iter_jsonl(path, "rows.jsonl"))
    path = _write(tmp_path, '{"a":1}\n{"a":"%s' % ("x" * 200), "endless.jsonl")      # never ends: not read to its end
    with pytest.raises(InputError, match=r"endless.jsonl:2: line of more than 30 characters"):
        list(iter_jsonl(path, "endless.jsonl"))
    monkeypatch.setattr(jsonio, "MAX_FILE_BYTES", 10)
    with pytest.raises(InputError, match=r"file of 16 bytes is larger than the 10-byte limit"):
        list(iter_jsonl(_write(tmp_path, '{"a":1}\n{"a":2}\n', "big.jsonl"), "big.jsonl"))


def test_iter_key_reads_the_top_level_member_only(tmp_path, monkeypatch):
    """Lines built to fool a search for the key: nested under an earlier member (with and without a member
    before it), inside a string, written with spaces, first, absent, repeated before the key (refused by
    the whole decode)."""
    lines = [
        ('{"a":{"flag":false},"flag":true,"text":"x"}', True),
        ('{"a":{"x":1,"flag":false},"flag":true}', True),
        ('{"a":"x,\\"flag\\":false","flag":null}', None),
        ('{"a":"x\\\\","flag":2,"z":[1]}', 2),
        ('{"a" : 1 , "flag" : "s"}', "s"),
        ('{"flag":[1,{"b":false}],"z":0}', [1, {"b": False}]),
        ('{"z":0}', ABSENT),
        ('{"flag":false,"flag":true}', "duplicate key 'flag'"),
        ('{"a":1,"flag":true,"flag":false}', True),      # a later repeat is left to the row's loader
    ]
    for block in (3, 1 << 20):
        monkeypatch.setattr(jsonio, "READ_BLOCK", block)
        path = _write(tmp_path, "".join(line + "\n" for line, _ in lines[:7]))
        assert list(iter_key(path, "rows.jsonl", "flag")) == [(i + 1, want) for i, (_, want) in enumerate(lines[:7])]
        path = _write(tmp_path, lines[0][0] + "\n" + lines[7][0] + "\n", "dup.jsonl")
        with pytest.raises(InputError, match=r"dup.jsonl:2: invalid JSON \(duplicate key 'flag'\)"):
            list(iter_key(path, "dup.jsonl", "flag"))
    path = _write(tmp_path, lines[8][0] + "\n", "late.jsonl")
    assert list(iter_key(path, "late.jsonl", "flag")) == [(1, True)]
    with pytest.raises(InputError, match="duplicate key"):
        list(iter_jsonl(path, "late.jsonl"))


@pytest.mark.parametrize("text,message", [
    ('{"flag":true}\n{"flag":', "rows.jsonl:2: last line has no newline"),
    ('{"flag":true}\r\n', "rows.jsonl:1: carriage return"),
    ('{"a":1,"flag":tru}\n', "rows.jsonl:1: invalid JSON"),
    ('{"a":1,"flag":true\n', "rows.jsonl:1: invalid JSON"),
    ('{"a":[1,"flag":true]}\n', "rows.jsonl:1: invalid JSON"),
    ('{"a":1,"flag":' + "[" * 70 + "]" * 70 + "}\n", "rows.jsonl:1: values nested deeper than 64 levels"),
    ("[1]\n", "rows.jsonl:1: each line must be a JSON object"),
    ("\n", "rows.jsonl:1: blank line"),
])
def test_iter_key_refuses_what_it_cannot_read_with_the_line(tmp_path, text, message):
    with pytest.raises(InputError) as info:
        list(iter_key(_write(tmp_path, text), "rows.jsonl", "flag"))
    assert message in str(info.value)


def _depth_reference(value):
    if isinstance(value, dict):
        return 1 + max([_depth_reference(v) for v in value.values()], default=0)
    if isinstance(value, list):
        return 1 + max([_depth_reference(v) for v in value], default=0)
    return 0


@pytest.mark.parametrize("value", [0, "s", [], {}, [[]], {"a": [1, {"b": []}], "c": 2}, [1, [2, [3, [4]]], {}],
                                   json.loads("[" * 64 + "]" * 64)])
def test_depth_is_the_recursive_definition(value):
    assert depth(value) == _depth_reference(value)


def test_depth_stops_one_past_the_limit():
    assert depth(json.loads("[" * 200 + "]" * 200), limit=64) == 65
    assert depth([[[[]]]], limit=2) == 3


def test_hash_into_is_hashlib_over_the_file_and_keeps_the_budget(tmp_path):
    data = os.urandom(3 * 1024 + 5)
    path = _write(tmp_path, data, "blob.bin")
    for size in (1, 1000, 1 << 20):
        hasher = hashlib.sha256()
        assert inputs.hash_into(path, "blob.bin", hasher, size=size) == len(data)
        assert hasher.hexdigest() == hashlib.sha256(data).hexdigest()
    with pytest.raises(InputError, match=r"blob.bin: file of 3077 bytes is larger than the 3000-byte limit"):
        inputs.hash_into(path, "blob.bin", hashlib.sha256(), budget=3000)
    os.mkfifo(str(tmp_path / "fifo"))
    with pytest.raises(InputError, match="not a regular file"):
        inputs.hash_into(str(tmp_path / "fifo"), "fifo", hashlib.sha256())


def test_read_input_reads_a_file_whole_within_its_budget(tmp_path):
    path = _write(tmp_path, b"x" * 100, "hundred.bin")
    assert inputs.read_input(path, "hundred.bin", 100) == b"x" * 100
    with pytest.raises(InputError, match="file of 100 bytes is larger than the 99-byte limit"):
        inputs.read_input(path, "hundred.bin", 99)


def test_whitespace_before_a_value_is_json_as_after_it(tmp_path):
    """RFC 8259 allows whitespace on both sides of a value: a document or a JSON Lines line that opens with
    spaces or a newline reads as the value (it was refused as "Expecting value"); whitespace alone is still
    invalid JSON, named at its line."""
    from nclue.core.errors import InputError
    from nclue.core.jsonio import iter_jsonl, read_json

    path = tmp_path / "m.json"
    path.write_text('\n {"a": 1}\n')
    assert read_json(str(path), "m.json") == {"a": 1}
    assert list(iter_jsonl(None, "r.jsonl", text=' {"a": 1}\n\t{"b": [2]}\n')) == [(1, {"a": 1}), (2, {"b": [2]})]
    path.write_text(" \n")
    with pytest.raises(InputError, match=r"^m\.json: invalid JSON \(Expecting value"):
        read_json(str(path), "m.json")

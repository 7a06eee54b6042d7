"""core/jsonio worked by hand on tiny inputs (docs/schema.md#limits): the canonical bytes it writes, every message
of its readers and writers with the file, line and field, the limits at their boundaries (a line of exactly the
limit, a value of exactly 1e300, a message of exactly 40 characters), and what a failed write leaves behind --
the kills of the mutants mutmut left alive in core/jsonio.py (docs/recipes.md#mutation-testing)."""

import errno
import json
import os
import re
import stat

import pytest

from nclue.core import jsonio
from nclue.core.errors import InputError, MissingInput, UnknownQuery, UsageError
from nclue.core.jsonio import (
    ABSENT,
    Row,
    _clip,
    _no_duplicate_keys,
    _reject_constant,
    all_finite_numbers,
    decode_text,
    depth,
    dumps_line,
    dumps_pretty,
    is_finite_number,
    iter_jsonl,
    iter_key,
    make_folder,
    open_output,
    output_folder,
    parse_json_text,
    read_bytes_text,
    read_json,
    refuse_existing,
    show_value,
    shown_path,
    write_json,
    write_jsonl,
    write_text,
)


def _write(tmp_path, data, name="rows.jsonl"):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return str(path)


def _message(exc_type, fn, *args, **kwargs):
    with pytest.raises(exc_type) as info:
        result = fn(*args, **kwargs)
        if hasattr(result, "__next__"):
            list(result)
    return str(info.value)


# -- canonical writing


def test_dumps_line_and_dumps_pretty_are_canonical():
    assert dumps_line({"b": 1, "a": ["é", 2.5]}) == '{"a":["é",2.5],"b":1}'
    assert dumps_pretty({"b": 1, "a": ["é"]}) == '{\n "a": [\n  "é"\n ],\n "b": 1\n}\n'
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError):
            dumps_line([bad])
        with pytest.raises(ValueError):
            dumps_pretty([bad])


def test_write_text_json_and_jsonl_write_exact_bytes(tmp_path):
    path = str(tmp_path / "out.txt")
    write_text(path, "é\nb\r\n")
    assert (tmp_path / "out.txt").read_bytes() == "é\nb\r\n".encode("utf-8")
    write_json(str(tmp_path / "o.json"), {"z": 1, "a": "ü"})
    assert (tmp_path / "o.json").read_bytes() == '{\n "a": "ü",\n "z": 1\n}\n'.encode("utf-8")
    write_jsonl(str(tmp_path / "o.jsonl"), [{"b": 2, "a": 1}, {}])
    assert (tmp_path / "o.jsonl").read_bytes() == b'{"a":1,"b":2}\n{}\n'
    write_jsonl(str(tmp_path / "empty.jsonl"), [])
    assert (tmp_path / "empty.jsonl").read_bytes() == b""
    assert sorted(os.listdir(str(tmp_path))) == ["empty.jsonl", "o.json", "o.jsonl", "out.txt"]


def test_the_writers_name_the_output_by_default(tmp_path):
    folder = str(tmp_path / "d")
    os.mkdir(folder)
    expected = "cannot write the output %r: it is a directory" % folder
    assert _message(UsageError, write_text, folder, "x") == expected
    assert _message(UsageError, write_jsonl, folder, [{}]) == expected
    assert _message(UsageError, write_json, folder, {}) == expected
    assert _message(UsageError, write_text, folder, "x", "the report") == (
        "cannot write the report %r: it is a directory" % folder)
    assert _message(UsageError, write_jsonl, folder, [], "the rows") == "cannot write the rows %r: it is a directory" % folder
    assert _message(UsageError, write_json, folder, {}, "the doc") == "cannot write the doc %r: it is a directory" % folder


def test_the_writers_pass_the_guard(tmp_path):
    calls = []
    write_text(str(tmp_path / "a"), "x", guard=lambda fd, name: calls.append(name))
    write_jsonl(str(tmp_path / "b"), [], guard=lambda fd, name: calls.append(name))
    assert calls == ["a", "a", "b", "b"]


# -- refuse_existing and shown_path


def test_refuse_existing_names_links_folders_and_special_files(tmp_path):
    plain = _write(tmp_path, b"x", "plain")
    assert refuse_existing(plain, "the output") is None
    assert refuse_existing(str(tmp_path / "absent"), "the output") is None
    link = str(tmp_path / "link")
    os.symlink(plain, link)
    assert _message(UsageError, refuse_existing, link, "the report") == (
        "refusing to write the report %r: it is a symbolic link (an output is never written through a link)" % link)
    assert _message(UsageError, refuse_existing, str(tmp_path), "the report") == (
        "cannot write the report %r: it is a directory" % str(tmp_path))
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    assert _message(UsageError, refuse_existing, fifo, "the report") == (
        "refusing to write the report %r: it exists and is not a regular file (a device, FIFO or socket is never "
        "replaced)" % fifo)


def test_refuse_existing_with_an_open_folder_looks_at_the_name_inside_it(tmp_path):
    (tmp_path / "sub").mkdir()
    os.mkfifo(str(tmp_path / "sub" / "fifo"))
    _write(tmp_path, b"x", "fifo")                      # a regular file of that name beside, not inside
    fd = os.open(str(tmp_path / "sub"), os.O_RDONLY)
    try:
        assert refuse_existing(str(tmp_path / "fifo"), "x") is None
        assert "not a regular file" in _message(UsageError, refuse_existing, str(tmp_path / "fifo"), "x", dir_fd=fd)
        assert refuse_existing("/nowhere/absent", "x", dir_fd=fd) is None
    finally:
        os.close(fd)


def test_shown_path_keeps_the_start_and_the_end_of_a_long_path():
    """A repr of up to 200 characters is whole; a longer one keeps its first 66 and last 133 around "..."."""
    assert shown_path("a/b") == "'a/b'"
    assert shown_path(3) == "'3'"
    exact = "x" * 198                                   # with the quotes: 200 characters
    assert shown_path(exact) == repr(exact)
    long = "s" * 100 + "m" * 50 + "e" * 100             # repr: 252 characters
    assert shown_path(long) == "'" + "s" * 65 + "..." + "m" * 32 + "e" * 100 + "'"
    assert shown_path(long, limit=30) == "'" + "s" * 9 + "..." + "e" * 19 + "'"


def test_the_write_errnos():
    assert jsonio.WRITE_ERRNOS == frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG})


# -- open_output


def test_open_output_writes_through_a_temporary_file_in_the_folder(tmp_path):
    """During the block only ".nclue-<pid>-<12 hex>.tmp" exists (mode 0666 less the umask); then only the output."""
    path = str(tmp_path / "out.txt")
    umask = os.umask(0o022)
    os.umask(umask)
    with open_output(path) as fh:
        names = os.listdir(str(tmp_path))
        assert len(names) == 1 and re.match(r"^\.nclue-%d-[0-9a-f]{12}\.tmp$" % os.getpid(), names[0])
        tmp_mode = stat.S_IMODE(os.stat(str(tmp_path / names[0])).st_mode)
        fh.write("é\n")
        assert not os.path.exists(path)
    assert os.listdir(str(tmp_path)) == ["out.txt"]
    assert (tmp_path / "out.txt").read_bytes() == "é\n".encode("utf-8")
    assert tmp_mode == 0o666 & ~umask
    with open_output(path) as fh:                   # an existing regular file is replaced
        fh.write("new")
    assert (tmp_path / "out.txt").read_bytes() == b"new"


def test_open_output_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(str(tmp_path))
    with open_output("here.txt") as fh:
        fh.write("x")
    assert (tmp_path / "here.txt").read_text() == "x"


def test_open_output_refuses_a_folder_name_and_an_unopenable_folder(tmp_path):
    path = str(tmp_path) + "/"
    assert _message(UsageError, open_output(path, "the report").__enter__) == (
        "cannot write the report %r: it names a folder, not a file" % path)
    missing = str(tmp_path / "no" / "out.txt")
    assert _message(UsageError, open_output(missing).__enter__) == (
        "cannot write the output %r: its folder cannot be opened (No such file or directory)" % missing)


def test_open_output_calls_the_guard_before_and_after_the_block(tmp_path):
    calls = []
    path = str(tmp_path / "out.txt")

    def guard(fd, name):
        calls.append((name, sorted(os.listdir(fd))))

    with open_output(path, guard=guard) as fh:
        fh.write("x")
        calls.append("block")
    assert calls[0] == ("out.txt", []) and calls[1] == "block"
    assert calls[2][0] == "out.txt" and len(calls[2][1]) == 1 and calls[2][1][0].startswith(".nclue-")
    assert len(calls) == 3

    def refuse(fd, name):
        raise UsageError("not here: %s" % name)

    with pytest.raises(UsageError, match=r"^not here: other\.txt$"):
        with open_output(str(tmp_path / "other.txt"), guard=refuse) as fh:
            raise AssertionError("the block never runs")
    assert sorted(os.listdir(str(tmp_path))) == ["out.txt"]


def test_open_output_refuses_a_link_swapped_in_during_the_block_and_removes_its_temporary_file(tmp_path):
    path = str(tmp_path / "out.txt")
    target = _write(tmp_path, b"target", "target")
    with pytest.raises(UsageError) as info:
        with open_output(path, "the report") as fh:
            fh.write("x")
            os.symlink(target, path)
    assert str(info.value) == ("refusing to write the report %r: it is a symbolic link (an output is never "
                               "written through a link)" % path)
    assert sorted(os.listdir(str(tmp_path))) == ["out.txt", "target"]
    assert (tmp_path / "target").read_bytes() == b"target"


def test_open_output_refuses_an_existing_link_before_writing(tmp_path):
    target = _write(tmp_path, b"target", "target")
    path = str(tmp_path / "out.txt")
    os.symlink(target, path)
    with pytest.raises(UsageError, match="symbolic link"):
        with open_output(path):
            raise AssertionError("the block never runs")
    assert sorted(os.listdir(str(tmp_path))) == ["out.txt", "target"]


def test_a_failing_block_leaves_nothing_and_a_write_error_names_the_output(tmp_path):
    """A write error (no file name, or ENOSPC/EROFS) becomes the UsageError naming the output; an error of a file the
    block read stays what it was; nothing is left behind either way."""
    path = str(tmp_path / "out.txt")
    with pytest.raises(KeyError):
        with open_output(path) as fh:
            fh.write("x")
            raise KeyError("boom")
    assert os.listdir(str(tmp_path)) == []
    with pytest.raises(UsageError) as info:
        with open_output(path, "the report"):
            raise OSError(errno.ENOSPC, "No space left on device", path)
    assert str(info.value) == "the report %r cannot be written: No space left on device" % path
    assert info.value.__cause__.errno == errno.ENOSPC
    with pytest.raises(UsageError) as info:
        with open_output(path):
            raise OSError(errno.EIO, "I/O error")             # no file name: the write's own error
    assert str(info.value) == "the output %r cannot be written: I/O error" % path
    with pytest.raises(UsageError) as info:
        with open_output(path):
            raise OSError("plain")
    assert str(info.value) == "the output %r cannot be written: plain" % path
    with pytest.raises(FileNotFoundError) as info:               # a file the block read: reported as that read
        with open_output(path):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", "input.json")
    assert info.value.filename == "input.json"
    with pytest.raises(UsageError) as info:
        with open_output(path):
            raise OSError(errno.EROFS, "Read-only file system", "x")
    assert str(info.value) == "the output %r cannot be written: Read-only file system" % path
    assert os.listdir(str(tmp_path)) == []


# -- make_folder and output_folder


def test_make_folder_creates_once_and_says_so(tmp_path):
    path = str(tmp_path / "out")
    assert make_folder(path) is True and os.path.isdir(path)
    assert make_folder(path) is False
    assert make_folder(path + os.sep + os.sep) is False
    deep = str(tmp_path / "a" / "b" / "c")
    assert make_folder(deep) is True and os.path.isdir(deep)
    assert make_folder(str(tmp_path / "a" / "b") + "/..") is False
    assert make_folder(str(tmp_path / "a") + "/.") is False
    assert make_folder(str(tmp_path / "new") + "/.") is False and os.path.isdir(str(tmp_path / "new"))
    assert sorted(os.listdir(str(tmp_path))) == ["a", "new", "out"]


def test_make_folder_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(str(tmp_path))
    assert make_folder("here") is True and os.path.isdir(str(tmp_path / "here"))
    assert make_folder(".") is False


def test_make_folder_passes_the_opened_parent_to_the_guard(tmp_path):
    calls = []
    path = str(tmp_path / "out")
    assert make_folder(path, guard=lambda fd, name: calls.append((name, os.listdir(fd)))) is True
    assert calls == [("out", [])]
    calls.clear()
    assert make_folder(str(tmp_path / "out") + "/.", guard=lambda fd, name: calls.append(name)) is False
    assert calls == ["."]


def test_make_folder_names_what_it_cannot_create(tmp_path, monkeypatch):
    long = str(tmp_path / ("n" * 300))
    assert _message(UsageError, make_folder, long, "the report folder") == (
        "cannot create the report folder %s: File name too long" % shown_path(long))
    assert _message(UsageError, make_folder, long) == "cannot create the output %s: File name too long" % (
        shown_path(long))
    real_open = os.open
    parent = str(tmp_path)

    def no_open(path, *args, **kwargs):
        if path == parent:
            raise OSError(errno.EACCES, "Permission denied", path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(jsonio.os, "open", no_open)
    path = str(tmp_path / "x")
    assert _message(UsageError, make_folder, path) == (
        "cannot create the output %r: its parent folder cannot be opened (Permission denied)" % path)
    assert _message(UsageError, make_folder, path, "the r") == (
        "cannot create the r %r: its parent folder cannot be opened (Permission denied)" % path)
    assert _message(UsageError, open_output(path, "the r").__enter__) == (
        "cannot write the r %r: its folder cannot be opened (Permission denied)" % path)


def test_output_folder_undoes_a_failed_block(tmp_path):
    path = str(tmp_path / "out")
    with pytest.raises(KeyError):
        with output_folder(path) as written:
            for name in ("a", "b"):
                _write(tmp_path / "out", b"x", name)
                written.append(os.path.join(path, name))
            written.append(os.path.join(path, "never-written"))
            raise KeyError("boom")
    assert os.listdir(str(tmp_path)) == []
    os.mkdir(path)
    with pytest.raises(KeyError):
        with output_folder(path) as written:
            _write(tmp_path / "out", b"x", "a")
            written.append(os.path.join(path, "a"))
            raise KeyError("boom")
    assert os.listdir(str(tmp_path)) == ["out"] and os.listdir(path) == []      # not created here: kept
    os.rmdir(path)
    with pytest.raises(KeyError):
        with output_folder(path) as written:
            _write(tmp_path / "out", b"x", "other")                             # not in the list: kept
            raise KeyError("boom")
    assert os.listdir(path) == ["other"]


def test_output_folder_keeps_a_finished_block(tmp_path):
    path = str(tmp_path / "out")
    with output_folder(path, "the report folder") as written:
        _write(tmp_path / "out", b"x", "a")
        written.append(os.path.join(path, "a"))
    assert os.listdir(path) == ["a"]
    calls = []
    with output_folder(str(tmp_path / "g"), guard=lambda fd, name: calls.append(name)):
        pass
    assert calls == ["g"]
    assert _message(UsageError, output_folder(str(tmp_path / ("n" * 300)), "the f").__enter__).startswith(
        "cannot create the f ")


# -- decoding


def test_duplicate_keys_are_named_first_repeat_first():
    assert _no_duplicate_keys([("a", 1), ("b", 2)]) == {"a": 1, "b": 2}
    assert _no_duplicate_keys([]) == {}
    with pytest.raises(ValueError, match=r"^duplicate key 'b'$"):
        _no_duplicate_keys([("a", 1), ("b", 2), ("b", 3), ("a", 4)])
    with pytest.raises(ValueError, match=r"^non-finite number -Infinity$"):
        _reject_constant("-Infinity")


def test_depth_counts_levels_up_to_one_past_the_limit():
    assert depth(3) == 0 and depth("s") == 0 and depth(None) == 0
    assert depth([]) == 1 and depth({}) == 1
    assert depth({"a": [1, {"b": []}], "c": 2}) == 4
    assert depth([1, [2, [3]], {"k": {"l": {}}}]) == 4
    assert depth([[[[]]]], limit=2) == 3
    assert depth([[[[]]]], limit=3) == 4
    assert depth([[[[]]]], limit=4) == 4
    nested = json.loads("[" * 66 + "]" * 66)
    assert depth(nested) == 65
    assert depth(json.loads("[" * 64 + "]" * 64)) == 64


def test_parse_json_text_names_each_defect():
    assert parse_json_text('{"a": [1, 2]} \n', "x.json") == {"a": [1, 2]}
    assert parse_json_text("[]", "x.json") == []
    assert _message(InputError, parse_json_text, '{"a": 1} x', "x.json", 3) == (
        "x.json:3: invalid JSON (extra data after the value)")
    assert _message(InputError, parse_json_text, '{"a": x}', "x.json") == (
        "x.json: invalid JSON (Expecting value: line 1 column 7 (char 6))")
    assert _message(InputError, parse_json_text, '{"a": NaN}', "x.json", 2) == (
        "x.json:2: invalid JSON (non-finite number NaN)")
    key = "k" * 200
    assert _message(InputError, parse_json_text, '{"%s": 1, "%s": 2}' % (key, key), "x.json") == (
        "x.json: invalid JSON (%s...)" % ("duplicate key '" + key)[:117])
    assert _message(InputError, parse_json_text, "[" * 100000, "x.json", 7) == (
        "x.json:7: values nested deeper than 64 levels")
    assert _message(InputError, parse_json_text, "[" * 65 + "]" * 65, "x.json", 4) == (
        "x.json:4: values nested deeper than 64 levels")
    assert _message(InputError, parse_json_text, "[" * 65 + "]" * 65, "x.json") == (
        "x.json: values nested deeper than 64 levels")
    assert depth(parse_json_text("[" * 64 + "]" * 64, "x.json")) == 64
    wide = "[" + ",".join(["[]"] * 70) + "]"            # 71 brackets but two levels
    assert parse_json_text(wide, "x.json") == [[]] * 70
    wide = "[" + ",".join(["{}"] * 70) + "]"
    assert parse_json_text(wide, "x.json") == [{}] * 70


def test_clip_keeps_120_characters():
    assert _clip("x" * 120) == "x" * 120
    assert _clip("x" * 121) == "x" * 117 + "..."
    assert _clip("abcdef", limit=5) == "ab..."


def test_decode_text_names_the_byte_offset_and_line():
    assert decode_text(b"a\n\xc3\xa9", "f") == "a\né"
    assert decode_text(memoryview(b"ok"), "f") == "ok"
    assert _message(InputError, decode_text, b"a\nb\n\xff", "f") == "f:3: not valid UTF-8 (byte offset 4)"
    assert _message(InputError, decode_text, b"a\n\xff", "f", 100, 7) == "f:8: not valid UTF-8 (byte offset 102)"
    assert _message(InputError, decode_text, b"\xef\xbb\xbfa", "f") == (
        "f:1: starts with a byte-order mark (UTF-8 without BOM expected)")
    assert decode_text(b"\xef\xbb\xbfa", "f", 5, 2) == "\ufeffa"        # only the file's start is checked


def test_read_json_and_read_bytes_text(tmp_path, monkeypatch):
    path = _write(tmp_path, '{"a": 1}\n', "x.json")
    assert read_json(path, "x.json") == {"a": 1}
    assert read_bytes_text(path, "x.json") == '{"a": 1}\n'
    assert _message(InputError, read_json, _write(tmp_path, "[1]", "l.json"), "l.json") == (
        "l.json: top-level value must be a JSON object")
    assert _message(InputError, read_json, _write(tmp_path, b"{}\xff", "b.json"), "b.json") == (
        "b.json:1: not valid UTF-8 (byte offset 2)")
    assert _message(MissingInput, read_json, str(tmp_path / "none.json"), "none.json") == "none.json: file is absent"
    monkeypatch.setattr(jsonio, "MAX_FILE_BYTES", 9)
    assert read_bytes_text(path, "x.json") == '{"a": 1}\n'
    monkeypatch.setattr(jsonio, "MAX_FILE_BYTES", 8)
    assert _message(InputError, read_bytes_text, path, "x.json") == (
        "x.json: file of 9 bytes is larger than the 8-byte limit")


# -- JSON Lines


def test_iter_jsonl_of_given_text():
    assert list(iter_jsonl(None, "x", text="")) == []
    assert list(iter_jsonl(None, "x", text='{"a":1}\n')) == [(1, {"a": 1})]
    assert _message(InputError, iter_jsonl, None, "x", text='{"a":1}\n{"a":1}\n{') == (
        "x:3: last line has no newline (truncated file?)")
    assert _message(InputError, iter_jsonl, None, "x", text="{}") == "x:1: last line has no newline (truncated file?)"


def test_iter_jsonl_of_a_file_block_by_block(tmp_path, monkeypatch):
    path = _write(tmp_path, '{"a":1}\n{"b":[2]}\n{}\n')
    for block in (1, 2, 9, 1 << 20):
        monkeypatch.setattr(jsonio, "READ_BLOCK", block)
        assert list(iter_jsonl(path, "rows.jsonl")) == [(1, {"a": 1}), (2, {"b": [2]}), (3, {})]
    assert list(iter_jsonl(_write(tmp_path, b"", "e.jsonl"), "e.jsonl")) == []
    assert _message(MissingInput, iter_jsonl, str(tmp_path / "none"), "none.jsonl") == "none.jsonl: file is absent"


def test_a_line_of_exactly_the_limit_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_LINE_CHARS", 12)
    monkeypatch.setattr(jsonio, "READ_BLOCK", 4)
    line = '{"a":"%s"}' % ("x" * 4)             # 12 characters
    assert list(iter_jsonl(_write(tmp_path, line + "\n"), "rows.jsonl")) == [(1, {"a": "xxxx"})]
    assert _message(InputError, iter_jsonl, _write(tmp_path, '{}\n{"a":"xxxxx"}\n'), "rows.jsonl") == (
        "rows.jsonl:2: line of 13 characters is longer than the 12-character limit")
    # an unfinished line may hold up to four bytes a character before it is cut short: 4 * 12 = 48 bytes
    monkeypatch.setattr(jsonio, "READ_BLOCK", 16)
    assert _message(InputError, iter_jsonl, _write(tmp_path, "{}\n" + "x" * 46), "rows.jsonl") == (
        "rows.jsonl:2: last line has no newline (truncated file?)")
    assert _message(InputError, iter_jsonl, _write(tmp_path, "{}\n" + "x" * 200), "rows.jsonl") == (
        "rows.jsonl:2: line of more than 12 characters is longer than the 12-character limit")


def test_a_file_that_grows_while_read_stops_at_the_limit(tmp_path, monkeypatch):
    """The size check before reading is bypassed, as for a file that grows after it: the bytes read are counted."""
    monkeypatch.setattr(jsonio, "check_size", lambda fh, where, budget: 0)
    monkeypatch.setattr(jsonio, "MAX_FILE_BYTES", 8)
    assert list(iter_jsonl(_write(tmp_path, '{"a":1}\n'), "rows.jsonl")) == [(1, {"a": 1})]      # exactly 8 bytes
    assert _message(InputError, iter_jsonl, _write(tmp_path, '{"a":12}\n'), "rows.jsonl") == (
        "rows.jsonl: file is larger than the 8-byte limit")


def test_line_numbers_and_offsets_carry_across_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "READ_BLOCK", 4)
    data = b'{}\n{}\n{"a":"\xc3\xa9"}\n{"b":"\xff"}\n'
    assert _message(InputError, iter_jsonl, _write(tmp_path, data), "rows.jsonl") == (
        "rows.jsonl:4: not valid UTF-8 (byte offset %d)" % data.index(b"\xff"))
    assert _message(InputError, iter_jsonl, _write(tmp_path, b'{}\n{}\n{"a":1}\n{"b":\r}\n'), "rows.jsonl") == (
        "rows.jsonl:4: carriage return found; line ends must be \\n")
    assert _message(InputError, iter_jsonl, _write(tmp_path, b'{}\n{}\n{"a":1}\n\xffx'), "rows.jsonl") == (
        "rows.jsonl:4: not valid UTF-8 (byte offset 14)")
    assert _message(InputError, iter_jsonl, _write(tmp_path, b'{}\n{}\n{"a":1}\nxx'), "rows.jsonl") == (
        "rows.jsonl:4: last line has no newline (truncated file?)")


def test_each_line_is_one_object(tmp_path):
    cases = [
        ("{}\n  \n", "rows.jsonl:2: blank line"),
        ("{}\n[]\n", "rows.jsonl:2: each line must be a JSON object"),
        ('{}\n"s"\n', "rows.jsonl:2: each line must be a JSON object"),
        ('{}\n{"a":1} \n', None),
        ('{"a":1}{}\n', "rows.jsonl:1: invalid JSON (extra data after the value)"),
        ('{"a":' + "[" * 64 + "]" * 64 + "}\n", "rows.jsonl:1: values nested deeper than 64 levels"),
        ('{"a":' + "[" * 63 + "]" * 63 + "}\n", None),
        ('{"a":[' + ",".join(["[]"] * 70) + "]}\n", None),
    ]
    for text, message in cases:
        path = _write(tmp_path, text)
        if message is None:
            assert [n for n, _ in iter_jsonl(path, "rows.jsonl")] == [1, 2][:text.count("\n")], text
        else:
            assert _message(InputError, iter_jsonl, path, "rows.jsonl") == message, text
    assert list(iter_jsonl(_write(tmp_path, '{"a":1}\n{"b":2} \n'), "r")) == [(1, {"a": 1}), (2, {"b": 2})]


def test_iter_key_by_hand(tmp_path):
    lines = ['{"flag":1,"x":2}', '{"a":1,"flag":[1,2],"z":3}', '{"a":1,"flag":{"b":2}}', '{"a":{"flag":0}}',
             '{"a":1, "flag":5}', '{"a":1,"flag":"s"}', '{"a":1,"flag":7 }', '{"a":1,"b":{"c":1,"flag":9}}',
             '{"a":1,"flag":' + "[" * 63 + "]" * 63 + "}", '{"a":1,"flag":' + "[" * 64 + "]" * 64 + "}"]
    path = _write(tmp_path, "".join(line + "\n" for line in lines[:9]))
    values = list(iter_key(path, "r", "flag"))
    assert values[:8] == [(1, 1), (2, [1, 2]), (3, {"b": 2}), (4, ABSENT), (5, 5), (6, "s"), (7, 7), (8, ABSENT)]
    assert values[8][0] == 9 and depth(values[8][1]) == 63
    path = _write(tmp_path, lines[9] + "\n")
    assert _message(InputError, iter_key, path, "r", "flag") == "r:1: values nested deeper than 64 levels"
    assert repr(ABSENT) == "ABSENT"
    path = _write(tmp_path, '{"a":1,"flag":2}\n{"a":1,"flag":2,"flag":3}\n')
    assert list(iter_key(path, "r", "flag")) == [(1, 2), (2, 2)]
    path = _write(tmp_path, '{"a":1,"flag":tru}\n')
    assert _message(InputError, iter_key, path, "r", "flag").startswith("r:1: invalid JSON (")
    path = _write(tmp_path, '{"a":1,"flag":2 3}\n')
    assert _message(InputError, iter_key, path, "r", "flag").startswith("r:1: invalid JSON (")
    path = _write(tmp_path, '{"flag":0,"a":{},"flag":2}\n')
    assert _message(InputError, iter_key, path, "r", "flag") == "r:1: invalid JSON (duplicate key 'flag')"
    path = _write(tmp_path, '{"flag":0,"b":1}\n{"a":1,"flag":true}\n{"x":"1,\\"flag\\":2"}\n')
    assert list(iter_key(path, "r", "flag")) == [(1, 0), (2, True), (3, ABSENT)]
    path = _write(tmp_path, '[1,"flag":2]\n')
    assert _message(InputError, iter_key, path, "r", "flag").startswith("r:1: invalid JSON (")


# -- Row


def test_row_errors_name_the_file_line_and_field():
    row = Row({"qid": "q1"}, "queries.jsonl", 4)
    assert (row.obj, row.where, row.line) == ({"qid": "q1"}, "queries.jsonl", 4)
    error = row.error("n", "bad")
    assert isinstance(error, InputError) and str(error) == "queries.jsonl:4: field 'n': bad"
    unknown = row.unknown_query("q9")
    assert isinstance(unknown, UnknownQuery) and unknown.qid == "q9"
    assert str(unknown) == "queries.jsonl:4: field 'qid': unknown query 'q9'"
    assert str(row.unknown_query("q8", field="query")) == "queries.jsonl:4: field 'query': unknown query 'q8'"


def test_row_get_and_str():
    row = Row({"a": "x", "e": "", "n": None, "i": 3}, "f", 2)
    assert row.get("a") == "x" and row.get("n") is None and row.get("z", required=False) is None
    assert _message(InputError, row.get, "z") == "f:2: field 'z': missing"
    assert row.str("a") == "x" and row.str("z", required=False) is None
    assert row.str("a", choices={"x", "y"}) == "x"
    assert _message(InputError, row.str, "z") == "f:2: field 'z': missing"
    assert _message(InputError, row.str, "e") == "f:2: field 'e': must be a non-empty string, got \"\""
    assert _message(InputError, row.str, "i") == "f:2: field 'i': must be a non-empty string, got 3"
    assert _message(InputError, row.str, "n") == "f:2: field 'n': must be a non-empty string, got null"
    assert row.str("n", required=False) is None                         # null counts as absent when optional
    assert _message(InputError, row.str, "a", choices={"z", "b"}) == 'f:2: field \'a\': must be one of b/z, got "x"'


def test_row_int():
    """Row.int refuses a bool, a float and a string, and names the range it checks (either bound may be None)."""
    row = Row({"i": 3, "b": True, "f": 3.0, "s": "3", "n": None}, "f", 1)
    assert row.int("i") == 3 and row.int("i", lo=3, hi=3) == 3 and row.int("z", required=False) is None
    assert _message(InputError, row.int, "z") == "f:1: field 'z': missing"
    for field, shown in (("b", "true"), ("f", "3.0"), ("s", '"3"'), ("n", "null")):
        assert _message(InputError, row.int, field) == "f:1: field '%s': must be an integer, got %s" % (field, shown)
    assert row.int("n", required=False) is None
    assert _message(InputError, row.int, "i", lo=4) == "f:1: field 'i': out of range 4..None, got 3"
    assert _message(InputError, row.int, "i", hi=2) == "f:1: field 'i': out of range None..2, got 3"
    assert _message(InputError, row.int, "i", 0, 2) == "f:1: field 'i': out of range 0..2, got 3"
    assert row.int("i", 0) == 3 and row.int("i", None, 5) == 3


def test_row_bool_number_list_dict():
    row = Row({"t": True, "f": False, "i": 1, "x": 2.5, "big": 1e301, "l": [1], "d": {"a": 1}, "n": None}, "f", 9)
    assert row.bool("t") is True and row.bool("f") is False and row.bool("z", required=False) is None
    assert _message(InputError, row.bool, "i") == "f:9: field 'i': must be true or false, got 1"
    assert row.bool("n", required=False) is None
    assert _message(InputError, row.bool, "n") == "f:9: field 'n': must be true or false, got null"
    assert _message(InputError, row.bool, "z") == "f:9: field 'z': missing"
    assert row.number("x") == 2.5 and type(row.number("i")) is float and row.number("i") == 1.0
    assert row.number("z", required=False) is None
    assert _message(InputError, row.number, "big") == (
        "f:9: field 'big': must be a finite number (|x| <= 1e+300), got 1e+301")
    assert _message(InputError, row.number, "t") == "f:9: field 't': must be a finite number (|x| <= 1e+300), got true"
    assert row.number("n", required=False) is None
    assert _message(InputError, row.number, "n") == "f:9: field 'n': must be a finite number (|x| <= 1e+300), got null"
    assert _message(InputError, row.number, "z") == "f:9: field 'z': missing"
    assert row.list("l") == [1] and row.list("z", required=False) is None
    assert _message(InputError, row.list, "d") == "f:9: field 'd': must be a list, got object of 1 item"
    assert row.list("n", required=False) is None
    assert _message(InputError, row.list, "n") == "f:9: field 'n': must be a list, got null"
    assert _message(InputError, row.list, "z") == "f:9: field 'z': missing"
    assert row.dict("d") == {"a": 1} and row.dict("z", required=False) is None
    assert _message(InputError, row.dict, "l") == "f:9: field 'l': must be an object, got list of 1 item"
    assert row.dict("n", required=False) is None
    assert _message(InputError, row.dict, "n") == "f:9: field 'n': must be an object, got null"
    assert _message(InputError, row.dict, "z") == "f:9: field 'z': missing"


# -- numbers and value display


def test_finite_numbers_up_to_1e300():
    assert jsonio.MAX_MAGNITUDE == 1e300 and jsonio.MAX_DEPTH == 64 and jsonio.MAX_LINE_CHARS == 1 << 20
    assert jsonio.READ_BLOCK == 1 << 20
    for good in (0, -3, 2.5, 1e300, -1e300, 10 ** 300):
        assert is_finite_number(good) is True, good
    for bad in (1.0000000000000001e300 * 1.0000001, -1e301, 10 ** 301, float("inf"), float("nan"), True, "1", None):
        assert is_finite_number(bad) is False, bad
    assert all_finite_numbers([]) is True
    assert all_finite_numbers([3, 2.5, -1e300, 1e300]) is True
    for bad in ([1.0, float("nan")], [1, True], [1, -1e301], [1e301, 1], [1, "2"], [float("nan")]):
        assert all_finite_numbers(bad) is False, bad


def test_show_value_by_kind():
    """Each branch of show_value, with the 40-character cut at its boundary and the 64-bit and 14,000-bit integers."""
    assert show_value("ab") == '"ab"'
    assert show_value("é") == '"é"'
    assert show_value("x" * 38) == '"' + "x" * 38 + '"'                      # 40 characters: whole
    assert show_value("x" * 39) == '"' + "x" * 36 + "..."                    # 41: cut to 37 and "..."
    assert show_value(float("inf")) == "inf" and show_value(float("-inf")) == "-inf"
    assert show_value(1e301) == "1e+301" and show_value(1e300) == "1e+300" and show_value(-1e300) == "-1e+300"
    assert show_value(2.5) == "2.5"
    assert show_value({}) == "object of 0 items" and show_value({"a": 1}) == "object of 1 item"
    assert show_value([1, 2]) == "list of 2 items"
    assert show_value(2 ** 64 - 1) == "18446744073709551615"
    assert show_value(2 ** 64) == "an integer of 20 digits" and show_value(-(2 ** 64)) == "an integer of 20 digits"
    assert show_value(2 ** 13998) == "an integer of 4214 digits"
    assert show_value(2 ** 13999) == "a huge integer"
    assert show_value(True) == "true" and show_value(None) == "null" and show_value(-7) == "-7"
    assert show_value("\u20ac" * 100) == '"' + "\u20ac" * 36 + "..."


# -- the survivors of the first mutmut run, each killed by hand


def test_make_folder_takes_a_trailing_slash_and_the_root(tmp_path):
    path = str(tmp_path / "out") + "/"
    assert make_folder(path) is True and os.path.isdir(path)
    assert make_folder("/") is False


def test_make_folder_of_a_dot_dot_path_opens_that_folder_and_creates_its_parents(tmp_path):
    calls = []
    (tmp_path / "a").mkdir()
    assert make_folder(str(tmp_path / "a") + "/..", guard=lambda fd, name: calls.append(name)) is False
    assert calls == ["."]
    assert make_folder(str(tmp_path / "new") + "/..") is False             # "new" is made on the way
    assert os.path.isdir(str(tmp_path / "new"))


def test_make_folder_opens_its_parent_as_a_folder_only(tmp_path, monkeypatch):
    """A parent that turns into a file after it was checked (simulated: isdir says yes) is refused when opened."""
    plain = _write(tmp_path, b"x", "plain")
    real_isdir = os.path.isdir
    monkeypatch.setattr(jsonio.os.path, "isdir", lambda p: True if p == plain else real_isdir(p))
    path = plain + "/sub"
    assert _message(UsageError, make_folder, path) == (
        "cannot create the output %r: its parent folder cannot be opened (Not a directory)" % path)


def test_a_value_64_deep_among_more_than_64_brackets_is_read():
    text = "[[]," + "[" * 63 + "]" * 63 + "]"                 # 65 brackets, 64 levels
    assert depth(parse_json_text(text, "x.json")) == 64


def test_read_json_names_the_file_of_invalid_json(tmp_path):
    path = _write(tmp_path, '{"a": }', "bad.json")
    assert _message(InputError, read_json, path, "bad.json") == (
        "bad.json: invalid JSON (Expecting value: line 1 column 7 (char 6))")


def test_a_jsonl_file_past_the_limit_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_FILE_BYTES", 10)
    path = _write(tmp_path, '{"a":1}\n{"a":2}\n', "big.jsonl")
    assert _message(InputError, iter_jsonl, path, "big.jsonl") == (
        "big.jsonl: file of 16 bytes is larger than the 10-byte limit")


def test_a_buffer_of_exactly_four_bytes_a_character_still_grows(tmp_path, monkeypatch):
    """READ_BLOCK 16 = 4 * MAX_LINE_CHARS: a 20-byte line fills the buffer exactly, which doubles once more; the
    line is then named with its length."""
    monkeypatch.setattr(jsonio, "MAX_LINE_CHARS", 4)
    monkeypatch.setattr(jsonio, "READ_BLOCK", 16)
    path = _write(tmp_path, "x" * 20 + "\n")
    assert _message(InputError, iter_jsonl, path, "rows.jsonl") == (
        "rows.jsonl:1: line of 20 characters is longer than the 4-character limit")


def test_the_bytes_read_are_counted_across_reads(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "check_size", lambda fh, where, budget: 0)
    monkeypatch.setattr(jsonio, "MAX_FILE_BYTES", 8)
    monkeypatch.setattr(jsonio, "READ_BLOCK", 4)
    assert list(iter_jsonl(_write(tmp_path, '{"a":1}\n'), "rows.jsonl")) == [(1, {"a": 1})]
    assert _message(InputError, iter_jsonl, _write(tmp_path, '{"a":12}\n'), "rows.jsonl") == (
        "rows.jsonl: file is larger than the 8-byte limit")


def test_a_carriage_return_is_named_at_its_first_line(tmp_path):
    assert _message(InputError, iter_jsonl, _write(tmp_path, "\n\r\n"), "rows.jsonl") == (
        "rows.jsonl:2: carriage return found; line ends must be \\n")
    assert _message(InputError, iter_jsonl, _write(tmp_path, "{}\r\n{}\r\n"), "rows.jsonl") == (
        "rows.jsonl:1: carriage return found; line ends must be \\n")
    assert _message(InputError, iter_jsonl, None, "x", text="{}\n{}\n{}\r\n{}\r\n") == (
        "x:3: carriage return found; line ends must be \\n")


def test_each_line_of_a_block_is_measured_from_its_own_start(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_LINE_CHARS", 12)
    line = '{"a":"xxxx"}'                                   # 12 characters
    assert list(iter_jsonl(_write(tmp_path, (line + "\n") * 3), "rows.jsonl")) == [(i, {"a": "xxxx"})
                                                                                   for i in (1, 2, 3)]
    assert _message(InputError, iter_jsonl, _write(tmp_path, '{}\n{"a":"xxxxx"}\n'), "rows.jsonl") == (
        "rows.jsonl:2: line of 13 characters is longer than the 12-character limit")


def test_iter_key_takes_a_value_only_before_a_comma_or_brace(tmp_path):
    path = _write(tmp_path, '{"a":1,"flag":2X}\n')
    assert _message(InputError, iter_key, path, "r", "flag") == (
        "r:1: invalid JSON (Expecting ',' delimiter: line 1 column 16 (char 15))")


def test_show_value_keeps_non_ascii_of_any_value():
    """show_value also shows recomputed values (harness/runner), not only decoded JSON: a tuple is shown as its list."""
    assert show_value(("é", 1)) == '["é", 1]'

"""This user's keyed signature (octal/trust.py), each of its checks on its own: the key's length, no key meaning no
trust, the key file private to its owner, and parts signed with their lengths."""

import os
import stat

from octal import trust


def test_a_key_of_another_length_is_no_key(tmp_path):
    """A key file of 5 bytes (or 33) is not this user's secret: no key, so nothing is signed or trusted."""
    for size in (5, trust.KEY_BYTES + 1):
        where = tmp_path / f"k{size}"
        where.mkdir()
        (where / "key").write_bytes(b"x" * size)
        assert trust._key(where) is None
    good = tmp_path / "good"
    good.mkdir()
    (good / "key").write_bytes(b"y" * trust.KEY_BYTES)
    assert trust._key(good) == b"y" * trust.KEY_BYTES


def test_without_a_key_no_signature_is_trusted(tmp_path, monkeypatch):
    """Where no key can be read or made (the config folder lies under a file), sign gives None and signed trusts
    nothing, whatever it is shown: every file is then checked in full."""
    (tmp_path / "file").write_text("")
    monkeypatch.setattr(trust, "config_dir", lambda: tmp_path / "file" / "octal")
    assert trust.sign(b"values") is None
    assert not trust.signed("0" * 64, b"values") and not trust.signed("", b"values")


def test_a_new_key_is_readable_by_its_owner_only(tmp_path):
    where = tmp_path / "fresh"
    key = trust._key(where)
    assert key is not None and len(key) == trust.KEY_BYTES
    mode = stat.S_IMODE(os.stat(where / "key").st_mode)
    assert mode & 0o077 == 0, oct(mode)


def test_parts_are_signed_with_their_lengths():
    """("ab", "c") and ("a", "bc") join to the same bytes: their signatures differ, as each part carries its length."""
    assert trust.sign(b"ab", b"c") is not None
    assert trust.sign(b"ab", b"c") != trust.sign(b"a", b"bc")
    assert trust.signed(trust.sign(b"ab", b"c"), b"ab", b"c") and not trust.signed(trust.sign(b"ab", b"c"), b"a", b"bc")

import pytest

from octal import UnknownGameError, find_preset, nim_sequence, presets, resolve

REQUIRED = {"0.77", "0.07", "0.137", "0.007", "0.6", "0.15", "0.7777", "0.[3]", "4.7", "0.75"}


def test_required_presets_ship():
    assert REQUIRED <= {str(p.code) for p in presets().values()}


@pytest.mark.parametrize("key", sorted(presets()))
def test_every_preset_matches_its_facts(key, oeis_rows):
    preset = presets()[key]
    facts = preset.facts
    assert preset.rules and preset.history and facts.get("source")
    if "period" in facts:
        r = nim_sequence(preset.code, until_proven=True, max_n=20_000)
        p = r.periodicity
        assert (p.period, p.preperiod, p.saltus) == (facts["period"], facts["preperiod"], facts.get("saltus", 0))
        if preset.code.is_finite:
            assert p.status == "proven"
    else:
        assert facts.get("status") == "open"
        assert nim_sequence(preset.code, 2000).periodicity.status != "proven"
    oeis = facts.get("oeis")
    if oeis:
        row = next(r for r in oeis_rows.values() if r["oeis"] == oeis)
        shift = facts.get("oeis_shift", 0)
        got = nim_sequence(preset.code, 100).values.tolist()
        assert got[shift:] == row["values"][: 100 - shift]


def test_oeis_sequences(oeis_rows):
    for code, row in oeis_rows.items():
        assert nim_sequence(code, 100).values.tolist() == row["values"], code


def test_names_and_aliases_resolve():
    assert str(resolve("kayles")[0]) == "0.77"
    assert str(resolve("Dawson's Kayles")[0]) == "0.07"
    assert str(resolve("dawsons-kayles")[0]) == "0.07"
    assert resolve("0.77")[1].name == "Kayles"
    assert find_preset("knots").name == "Daisies"


def test_unknown_name_is_a_clear_error():
    with pytest.raises(UnknownGameError, match="unknown game 'kayless'"):
        resolve("kayless")


@pytest.mark.parametrize("key", sorted(k for k, p in presets().items() if p.misere))
def test_presets_match_their_misere_facts(key):
    from octal.misere import misere_quotient

    facts = presets()[key].misere
    assert facts.get("source")
    q = misere_quotient(presets()[key].code, max_order=200)
    if "order" in facts:
        assert (q.order, q.p_portion, q.period, q.status) == (facts["order"], facts["p_portion"], facts["period"],
                                                              "finite")
    else:
        assert facts["status"] == q.status == "growing"

def test_presets_json_keeps_its_keys():
    import json

    from typer.testing import CliRunner

    from octal.front.cli import app

    doc = json.loads(CliRunner().invoke(app, ["presets", "--json"]).output)
    kayles = doc["kayles"]
    assert {"name", "code", "aliases", "facts"} <= set(kayles)
    assert kayles["facts"]["period"] == 12 and kayles["facts"]["misere_order"] == 40  # the names scripts know
    assert (kayles["misere"]["order"] == 40 and doc["grundy"]["code"] == "4!.0"
            and doc["grundy"]["facts"]["oeis"] == "A002188")

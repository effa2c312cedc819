"""Sector import and the sector generator.

The made-up fixtures in ``tests/data/sectors/`` are small invented sectors, one per format, each
with deliberately odd rows whose line numbers the tests pin down.  The real Traveller files are
read from ``../shared/sectors`` (never copied here: their licence forbids it); those tests carry
the ``realsectors`` marker and fail, saying where the folder belongs, when it is absent.
"""

from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refassist.errors import SectorError
from refassist.geometry.hexmap import distance
from refassist.geometry.sectors import (
    EHEX,
    GENERATED_SEATS,
    HOMEWORLD_DISTANCE,
    Sector,
    SectorWarning,
    World,
    generate_sector,
    read_metadata,
    read_sector,
    write_tab,
)

from .conftest import SHARED_SECTORS, missing_shared

DATA = Path(__file__).parent / "data" / "sectors"
REAL = SHARED_SECTORS

TAB = DATA / "made-up.tab"
COLUMNS = DATA / "made-up-columns.sec"
LEGACY = DATA / "made-up-legacy.sec"
LEGACY_1248 = DATA / "made-up-1248.sec"
XML = DATA / "made-up.xml"

UWP_SHAPE = re.compile(r"^[ABCDEX][0-9A-HJ-NP-Z]{6}-[0-9A-HJ-NP-Z]$")


def warned(sector: Sector, phrase: str) -> list[int]:
    """Line numbers of the warnings whose message contains ``phrase``."""
    return [w.line for w in sector.warnings if phrase in w.message]


def flags(world: World | None) -> tuple[str, bool, bool, bool]:
    assert world is not None
    return world.starport, world.naval_base, world.scout_base, world.hipop


def reread(sector: Sector, folder: Path, **kwargs: bool) -> Sector:
    path = folder / "written.tab"
    path.write_text(write_tab(sector), encoding="utf-8")
    return read_sector(path, **kwargs)


# --------------------------------------------------------------------------------------------
# Format A: T5 tab-delimited
# --------------------------------------------------------------------------------------------


def test_tab_fields_and_metadata() -> None:
    sector = read_sector(TAB)
    assert sector.name == "Makeup Reach"  # the <Name> without Lang, though the Lang one is first
    assert sector.abbreviation == "Mkup"
    assert sector.source == str(TAB)
    assert len(sector.worlds) == 15
    hexes = [w.hex for w in sector.worlds]
    assert hexes == sorted(set(hexes))
    assert sector.world("0310") == World(
        hex="0310",
        name="Korrigan",
        uwp="A8859AB-C",
        starport="A",
        naval_base=True,
        scout_base=False,
        hipop=True,
        bases="N",
        remarks="Hi In Cp",
        zone="A",
        allegiance="MkIm",
    )


def test_tab_hipop_is_a_whole_token_of_remarks() -> None:
    sector = read_sector(TAB)
    hibernia = sector.world("0205")
    assert hibernia.remarks == "Ni {Hidden Vault}"  # 'Hi' only inside other words
    assert flags(hibernia) == ("B", False, True, False)
    assert sector.world("1607").hipop  # 'Hi In Ht'
    queslin = sector.world("2532")
    assert queslin is not None and queslin.uwp[4] == "9" and not queslin.hipop
    assert warned(sector, "gives population 9 but Remarks have no 'Hi'") == [17]


def test_tab_bases_mapping() -> None:
    sector = read_sector(TAB)
    assert flags(sector.world("1607"))[1:3] == (True, True)  # NS
    assert flags(sector.world("1112"))[1:3] == (True, False)  # NW
    assert flags(sector.world("1225"))[1:3] == (False, False)  # W only
    assert flags(sector.world("2532"))[1:3] == (False, False)  # D: a depot, not a base
    assert flags(sector.world("2011"))[1:3] == (False, False)  # T5 V: exploration base
    assert flags(sector.world("1530"))[1:3] == (False, False)  # KM, K not counted by default
    with_k = read_sector(TAB, count_k_bases=True)
    assert flags(with_k.world("1530"))[1:3] == (True, False)
    assert sum(w.naval_base for w in with_k.worlds) == sum(w.naval_base for w in sector.worlds) + 1


def test_tab_odd_rows_are_warnings_with_their_line_numbers() -> None:
    sector = read_sector(TAB)
    assert warned(sector, "unknown starport") == [8]
    assert warned(sector, "appears again") == [10]
    assert warned(sector, "outside the sector") == [12]
    assert warned(sector, "no hex id") == [13]
    assert warned(sector, "fields but the header (line 4) has 17") == [19]
    assert warned(sector, "is not of the form") == [22]
    assert len(sector.warnings) == 7
    assert str(sector.warnings[0]) == (
        "line 8: unknown starport '?' in UWP '???????-?'; world 'Zanthe' (0901) treated as class X"
    )
    assert all(len(w.text) <= 80 for w in sector.warnings)


def test_tab_corrections_keep_the_world() -> None:
    sector = read_sector(TAB)
    assert flags(sector.world("0901")) == ("X", False, False, False)
    assert sector.world("0901").uwp == "???????-?"
    mervin = sector.world("1018")
    assert (mervin.name, mervin.uwp, mervin.zone) == ("Mervin", "E200000-0", "R")  # first kept
    assert sector.world("3341") is None
    assert sector.world("0510").name == "Nollen"  # hex '510' as a spreadsheet saves it
    assert sector.world("3001").uwp == "D455312-5"  # short row still read
    assert sector.world("2720").starport == "C"  # malformed UWP, starport from its letter
    assert sector.world("2011").zone == ""  # '-' means no zone
    unnamed = sector.world("1530")
    assert (unnamed.name, unnamed.display_name) == ("", "1530")
    assert sector.world("3240").display_name == "Omega"


def test_sector_lookups() -> None:
    sector = read_sector(TAB)
    assert sector.world("1607").name == "Tarsis"
    assert sector.world("510").name == "Nollen"
    assert sector.world("0101") is None
    assert sector.world("nowhere") is None
    assert sector.subsector_names == {"A": "Alderwood", "F": "Farrow Gate", "K": "Kestrel"}
    assert sector.subsector_name("k") == "Kestrel"
    assert sector.subsector_name("B") == "Subsector B"  # empty in the XML
    with pytest.raises(ValueError, match="subsector letter"):
        sector.subsector_name("Q")


# --------------------------------------------------------------------------------------------
# Format B: T5 column-delimited
# --------------------------------------------------------------------------------------------


def test_columns_fields() -> None:
    sector = read_sector(COLUMNS)
    assert sector.name == "made-up-columns"  # no XML beside it: the file stem
    assert [w.hex for w in sector.worlds] == [
        "0101", "0112", "0207", "0530", "1104", "1620", "2909", "3140",
    ]  # fmt: skip
    delphine = sector.world("0207")
    assert (delphine.uwp, delphine.bases, delphine.remarks, delphine.zone) == (
        "A8779C9-D",
        "NS",
        "Hi In",
        "A",
    )
    assert flags(delphine) == ("A", True, True, True)
    assert sector.world("0101").bases == "" and sector.world("0101").zone == ""  # '-' is empty
    assert sector.world("0530").zone == "R"
    assert flags(sector.world("1620")) == ("E", False, True, False)  # Hiawatha: no 'Hi'
    assert flags(sector.world("2909")) == ("C", False, False, False)  # KV
    assert flags(read_sector(COLUMNS, count_k_bases=True).world("2909"))[1] is True
    assert flags(sector.world("1104")) == ("X", False, False, False)


def test_columns_warnings() -> None:
    sector = read_sector(COLUMNS)
    assert warned(sector, "unknown starport") == [7]
    assert warned(sector, "is not a hex id") == [13, 15]
    assert len(sector.warnings) == 3


# --------------------------------------------------------------------------------------------
# Format C: legacy .sec
# --------------------------------------------------------------------------------------------


def test_legacy_fixture_is_really_cp1252_with_crlf_and_a_tab() -> None:
    data = LEGACY.read_bytes()
    assert b"\r\n" in data and b"M\xe9nard" in data and b"\t0505\t" in data
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")


def test_legacy_genie_layout() -> None:
    sector = read_sector(LEGACY)
    assert sector.name == "made-up-legacy"
    assert len(sector.worlds) == 12
    assert sector.world("0101").name == "Ménard"
    assert sector.world("0104").name == "Œil"
    assert flags(sector.world("0101")) == ("A", True, True, False)  # A: naval + scout
    assert flags(sector.world("0104")) == ("B", True, False, False)  # N
    assert flags(sector.world("0206")) == ("C", True, False, True)  # F: military + naval
    assert flags(sector.world("0210")) == ("D", False, True, False)  # legacy V: scout
    assert flags(sector.world("0610")) == ("B", True, False, False)  # B; Hibernia has no 'Hi'
    assert flags(sector.world("0110")) == ("C", False, False, True)  # no base, remarks 'Hi'
    pollux = sector.world("0206")
    assert (pollux.uwp, pollux.remarks, pollux.zone, pollux.allegiance) == (
        "C9C4A77-A",
        "Fl Hi In",
        "A",
        "Im",
    )


def test_legacy_odd_lines() -> None:
    sector = read_sector(LEGACY)
    tabbed = sector.world("0505")
    assert (tabbed.name, tabbed.uwp, tabbed.bases, tabbed.remarks) == (
        "Tabbed",
        "B6679A8-B",
        "J",
        "Hi Ri",
    )
    assert flags(tabbed) == ("B", True, False, True)
    assert sector.world("0303").name == ""  # '.' for a name
    assert sector.world("0408").name == ""  # the hex as its own name
    assert sector.world("0607").name == "Ocrworld"  # 'O6O7' read as 0607
    glued = sector.world("0709")
    assert (glued.remarks, glued.zone, glued.allegiance) == ("Lo Ni", "R", "Im")
    assert sector.world("0802").starport == "X"
    assert warned(sector, "Windows-1252") == [0]
    assert warned(sector, "read hex 'O6O7'") == [13]
    assert warned(sector, "unknown starport") == [15]
    assert warned(sector, "outside the sector") == [16]
    assert warned(sector, "no hex id and UWP") == [17]
    assert warned(sector, "appears again (first on line 8") == [20]
    assert len(sector.warnings) == 6
    assert str(sector.warnings[0]) == "the file is not UTF-8; read it as Windows-1252 (cp1252)"


def test_legacy_1248_layout() -> None:
    sector = read_sector(LEGACY_1248)
    assert [w.hex for w in sector.worlds] == ["1101", "1102", "1103", "1204", "1305", "1406"]
    calloway = sector.world("1101")
    assert (calloway.bases, calloway.remarks, calloway.allegiance) == ("", "Va Ni O:1102", "Na")
    assert flags(sector.world("1102")) == ("A", True, False, True)  # J, 'Hi'
    assert sector.world("1102").name == "DUNMORRAN"
    assert sector.world("1204").remarks == "{Trade Post}"
    assert flags(sector.world("1204"))[1:3] == (False, False)  # M: military only
    assert flags(sector.world("1305"))[1:3] == (False, True)  # V
    assert sector.world("1406").name == "Harrow Station"  # no stars, trailing space
    assert [str(w) for w in sector.warnings] == [
        "line 3: unknown starport '?' in UWP '???????-?'; unnamed world (1103) treated as class X"
    ]


def test_explicit_metadata_is_used_for_any_format() -> None:
    sector = read_sector(LEGACY_1248, metadata=XML)
    assert (sector.name, sector.abbreviation) == ("Makeup Reach", "Mkup")
    assert sector.subsector_name("A") == "Alderwood"


# --------------------------------------------------------------------------------------------
# Files that cannot be read, and metadata
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"  \r\n\n\t\n", "the file is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "binary data"),
        (bytes(range(1, 32)) * 20, "binary data"),
        (b"hello\nthere is no sector here\n", "no world could be read (2 line(s) had problems"),
        (b"# only comments\n\n# here\n", "the file holds no world rows"),
        (b"Hex\tName\tStarport\n0101\tX\tA\n", "the header has no UWP column"),
        (b"Hex  Name  Port\n---- ----- ----\n0101 X     A\n", "the header has no UWP column"),
    ],
)
def test_unreadable_files_raise_sector_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "broken.sec"
    path.write_bytes(content)
    with pytest.raises(SectorError, match=re.escape(message)) as caught:
        read_sector(path)
    assert str(path) in str(caught.value)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(SectorError, match=r"cannot open sector file .*nothing\.tab"):
        read_sector(tmp_path / "nothing.tab")
    with pytest.raises(SectorError, match="cannot open sector file"):
        read_sector(tmp_path)


def test_read_metadata() -> None:
    name, abbreviation, subsectors = read_metadata(XML)
    assert (name, abbreviation) == ("Makeup Reach", "Mkup")
    assert subsectors == {"A": "Alderwood", "F": "Farrow Gate", "K": "Kestrel"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<Sector><Name>Open", "is not well-formed XML"),
        ("not xml at all", "is not well-formed XML"),
        (
            '<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaa">]><Sector><Name>&a;</Name>'
            "</Sector>",
            "refused for safety",
        ),
        ("<Galaxy><Name>Wrong</Name></Galaxy>", "its root element is <Galaxy>"),
    ],
)
def test_bad_metadata_raises(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SectorError, match=re.escape(message)):
        read_metadata(path)
    with pytest.raises(SectorError, match=re.escape(message)):
        read_sector(TAB, metadata=path)  # metadata asked for must be good


def test_metadata_missing_parts_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "bare.xml"
    path.write_text("<Sector/>", encoding="utf-8")
    assert read_metadata(path) == ("", "", {})
    with pytest.raises(SectorError, match="cannot open sector metadata"):
        read_metadata(tmp_path / "absent.xml")


def test_broken_sibling_metadata_is_only_a_warning(tmp_path: Path) -> None:
    shutil.copy(TAB, tmp_path / "copy.tab")
    (tmp_path / "copy.xml").write_text("<Sector><Name>", encoding="utf-8")
    sector = read_sector(tmp_path / "copy.tab")
    assert sector.name == "copy"
    assert sector.abbreviation == "Mkup"  # from the Sector column
    assert sector.subsector_names == {}
    assert warned(sector, "not well-formed XML") == [0]


FIXTURES = [TAB, COLUMNS, LEGACY, LEGACY_1248]
SECTOR_TOKENS = [
    "0101", "3240", "3341", "0000", "510", "O6O7", "A867A69-F", "???????-?", "X", "C12", "Hi",
    "NS", "KV", "-", "--", "123", "?14", "Im", "R456Im", "{ 4 }", "[Solomani]", "Hex", "UWP",
    "Bases", "Name", "----", "#", "$", "@", "é", "\x00", "\u2028",
]  # fmt: skip


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    fixture=st.sampled_from(FIXTURES),
    position=st.integers(min_value=0, max_value=40),
    junk=st.lists(
        st.one_of(
            st.text(max_size=60),
            st.lists(st.sampled_from(SECTOR_TOKENS), max_size=12).map(" ".join),
            st.lists(st.sampled_from(SECTOR_TOKENS), max_size=12).map("\t".join),
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_odd_lines_never_crash(
    tmp_path: Path, fixture: Path, position: int, junk: list[str]
) -> None:
    lines = fixture.read_bytes().decode("cp1252").splitlines()
    lines[position:position] = junk
    path = tmp_path / fixture.name
    text = "\n".join(lines)
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        sector = read_sector(path)
    except SectorError:
        return  # e.g. junk that made the first line a header of another format
    assert all(isinstance(w, SectorWarning) and str(w) for w in sector.warnings)
    last_line = text.count("\n") + text.count("\r") + 1  # a lone CR also ends a line
    assert all(0 <= w.line <= last_line for w in sector.warnings)


# --------------------------------------------------------------------------------------------
# write_tab round trips
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count_k", [False, True])
@pytest.mark.parametrize("fixture", FIXTURES)
def test_write_tab_round_trip(tmp_path: Path, fixture: Path, count_k: bool) -> None:
    original = read_sector(fixture, count_k_bases=count_k)
    again = reread(original, tmp_path)  # read back without the option: the file says so
    assert again.worlds == original.worlds
    assert again.abbreviation == original.abbreviation


def test_write_tab_says_when_legacy_base_codes_are_needed() -> None:
    assert "# refassist: legacy-bases" in write_tab(read_sector(LEGACY))
    assert "# refassist:" not in write_tab(read_sector(TAB))
    assert "# refassist: k-naval" in write_tab(read_sector(TAB, count_k_bases=True))


# --------------------------------------------------------------------------------------------
# The real Traveller files (read in place from ../shared/sectors, never copied)
# --------------------------------------------------------------------------------------------


@pytest.fixture
def real() -> Path:
    if not REAL.is_dir():
        missing_shared(
            f"the real Traveller sector files are not at {REAL}; they live beside the "
            "repository in ../shared/sectors and are never copied into it"
        )
    return REAL


@pytest.mark.realsectors
def test_real_solomani_rim_tab(real: Path) -> None:
    sector = read_sector(real / "solomani-rim.tab")
    assert (sector.name, sector.abbreviation) == ("Solomani Rim", "Solo")
    assert len(sector.worlds) == 400
    terra = sector.world("1827")
    assert (terra.name, terra.uwp, terra.bases) == ("Terra", "A867A69-F", "NW")
    assert flags(terra) == ("A", True, False, True)
    counts = Counter(w.starport for w in sector.worlds)
    assert counts == {"A": 199, "B": 88, "C": 77, "D": 15, "E": 10, "X": 11}
    assert sum(w.naval_base for w in sector.worlds) == 39
    assert sum(w.scout_base for w in sector.worlds) == 9
    assert sum(w.hipop for w in sector.worlds) == 125
    assert sector.subsector_name("K") == "Sol"
    assert len(sector.subsector_names) == 16
    assert sector.warnings == []
    with_k = read_sector(real / "solomani-rim.tab", count_k_bases=True)
    assert sum(w.naval_base for w in with_k.worlds) == 39 + 16


@pytest.mark.realsectors
def test_real_spinward_marches_tab(real: Path) -> None:
    sector = read_sector(real / "spinward-marches.tab")
    assert (sector.name, sector.abbreviation) == ("Spinward Marches", "Spin")
    assert len(sector.worlds) == 439
    assert Counter(w.starport for w in sector.worlds)["A"] == 54
    assert sum(w.hipop for w in sector.worlds) == 42
    assert sum(w.naval_base for w in sector.worlds) == 55
    assert sum(w.scout_base for w in sector.worlds) == 66
    assert sector.world("1827") is None
    assert sector.subsector_name("J") == "Sword Worlds"
    assert sector.warnings == []


@pytest.mark.realsectors
def test_real_spinward_marches_1120_columns_match_the_tab(real: Path) -> None:
    tab = read_sector(real / "spinward-marches.tab")
    columns = read_sector(real / "spinward-marches-1120.sec")
    assert len(columns.worlds) == 439
    assert [w.hex for w in columns.worlds] == [w.hex for w in tab.worlds]
    differ = {
        w.hex: (w.starport, c.starport)
        for w, c in zip(tab.worlds, columns.worlds, strict=True)
        if w.starport != c.starport
    }
    # Three starports really changed between 1105 and 1120 (Corfu, Pavanne, Zykoca).
    assert differ == {"2602": ("C", "X"), "2905": ("E", "C"), "3004": ("D", "X")}
    assert Counter(w.starport for w in columns.worlds)["A"] == 54
    assert sum(w.hipop for w in columns.worlds) == 42
    assert sum(w.naval_base for w in columns.worlds) == 49
    assert sum(w.scout_base for w in columns.worlds) == 51  # 'KV' exploration bases not counted
    assert columns.warnings == []


@pytest.mark.realsectors
def test_real_solomani_rim_1248_legacy(real: Path) -> None:
    path = real / "solomani-rim-1248.sec"
    sector = read_sector(path)
    assert len(sector.worlds) == 401
    unknown = [n for n, line in enumerate(path.read_text().splitlines(), 1) if "???????-?" in line]
    assert len(unknown) == 293
    assert warned(sector, "unknown starport '?'") == unknown
    assert len(sector.warnings) == 293
    terra = sector.world("1827")
    assert (terra.name, terra.uwp, terra.remarks, terra.allegiance) == (
        "Terra",
        "???????-?",
        "[Solomani]",
        "--",
    )
    assert terra.starport == "X"
    assert Counter(w.starport for w in sector.worlds)["A"] == 7
    assert sum(w.hipop for w in sector.worlds) == 23
    assert sum(w.naval_base for w in sector.worlds) == 5  # the five J bases
    assert sum(w.scout_base for w in sector.worlds) == 1  # the one V base
    assert sector.world("2908").name == "CP Panama"
    assert sector.name == "Solomani Rim"
    assert sector.subsector_names == {
        "A": "Ultima",
        "B": "Suleiman",
        "C": "Charuth",
        "D": "Gashurzid",
        "H": "Banasdan",
    }
    assert sector.subsector_name("K") == "Subsector K"


@pytest.mark.realsectors
@pytest.mark.parametrize(
    "name",
    [
        "solomani-rim.tab",
        "spinward-marches.tab",
        "spinward-marches-1120.sec",
        "solomani-rim-1248.sec",
    ],
)
def test_real_round_trip(real: Path, tmp_path: Path, name: str) -> None:
    original = read_sector(real / name, count_k_bases=True)
    assert reread(original, tmp_path).worlds == original.worlds


# --------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------

SEEDS = range(12)


@pytest.fixture(scope="module")
def generated() -> list[Sector]:
    return [generate_sector(seed) for seed in SEEDS]


def quadrant(hex_: str) -> tuple[int, int]:
    return (int(hex_[:2]) - 1) // 16, (int(hex_[2:]) - 1) // 20


def greedy_seats(hexes: list[str], distance_apart: int) -> list[str]:
    """Class A worlds picked in hex order, each far enough from those already picked."""
    picked: list[str] = []
    for h in hexes:
        if all(distance(h, p) >= distance_apart for p in picked):
            picked.append(h)
    return picked


def test_same_seed_same_sector_and_the_global_random_is_untouched() -> None:
    random.seed(1)
    state = random.getstate()
    first = generate_sector(2024)
    assert random.getstate() == state
    random.seed(99)
    second = generate_sector(2024)
    assert write_tab(first) == write_tab(second)
    assert first == second
    assert first.source == "generated:2024"
    assert first.warnings == []


def test_different_seeds_differ(generated: list[Sector]) -> None:
    texts = {write_tab(s) for s in generated}
    assert len(texts) == len(generated)
    assert len({s.name for s in generated}) == len(generated)


def test_name_argument_only_renames() -> None:
    plain = generate_sector(7)
    named = generate_sector(7, name="Testbed Reach")
    assert (named.name, named.abbreviation) == ("Testbed Reach", "Test")
    assert named.worlds == plain.worlds
    assert named.subsector_names == plain.subsector_names


def test_occupancy_follows_density(generated: list[Sector]) -> None:
    for sector in generated:
        assert 0.26 <= len(sector.worlds) / 1280 <= 0.40
    sparse = [len(generate_sector(seed, density=0.15).worlds) / 1280 for seed in SEEDS]
    assert 0.10 <= sum(sparse) / len(sparse) <= 0.20
    with pytest.raises(ValueError, match="density"):
        generate_sector(1, density=0)
    with pytest.raises(ValueError, match="density"):
        generate_sector(1, density=1.5)


def test_frequencies_are_plausible(generated: list[Sector]) -> None:
    worlds = [w for s in generated for w in s.worlds]
    share = {k: v / len(worlds) for k, v in Counter(w.starport for w in worlds).items()}
    bands = {
        "A": (0.14, 0.21),
        "B": (0.17, 0.24),
        "C": (0.21, 0.30),
        "D": (0.12, 0.19),
        "E": (0.07, 0.14),
        "X": (0.07, 0.14),
    }
    for port, (low, high) in bands.items():
        assert low <= share[port] <= high, (port, share[port])
    naval = [w for w in worlds if w.naval_base]
    assert 0.08 <= len(naval) / len(worlds) <= 0.12
    assert sum(w.starport in "AB" for w in naval) / len(naval) >= 0.75
    assert 0.05 <= sum(w.scout_base for w in worlds) / len(worlds) <= 0.15
    assert 0.10 <= sum(w.hipop for w in worlds) / len(worlds) <= 0.15
    for sector in generated:  # no sector strays far from the average either
        assert 0.10 <= sum(w.starport == "A" for w in sector.worlds) / len(sector.worlds) <= 0.25


def test_worlds_look_like_traveller_worlds(generated: list[Sector]) -> None:
    for sector in generated:
        for w in sector.worlds:
            assert UWP_SHAPE.match(w.uwp), w
            assert w.starport == w.uwp[0]
            population = EHEX.index(w.uwp[4])
            assert w.hipop == (population >= 9) == ("Hi" in w.remarks.split()), w
            assert w.naval_base == ("N" in w.bases) and w.scout_base == ("S" in w.bases)
            assert w.bases in ("", "N", "S", "NS")


def test_every_quadrant_has_three_class_a_worlds(generated: list[Sector]) -> None:
    for sector in generated:
        per_quadrant = Counter(quadrant(w.hex) for w in sector.worlds if w.starport == "A")
        assert set(per_quadrant) == {(0, 0), (0, 1), (1, 0), (1, 1)}
        assert min(per_quadrant.values()) >= 3


@pytest.mark.parametrize("seed", [*SEEDS, 123456789, -5])
def test_twelve_homeworlds_fit(seed: int) -> None:
    sector = generate_sector(seed, density=0.2)
    class_a = [w.hex for w in sector.worlds if w.starport == "A"]
    seats = greedy_seats(class_a, HOMEWORLD_DISTANCE)
    assert len(seats) >= GENERATED_SEATS == 12


def seats_exist(hexes: list[str], wanted: int, distance_apart: int) -> bool:
    """An exact search (fine for a few dozen hexes): ``wanted`` hexes pairwise far enough?"""
    if wanted == 0:
        return True
    for i, h in enumerate(hexes):
        rest = [o for o in hexes[i + 1 :] if distance(h, o) >= distance_apart]
        if len(rest) >= wanted - 1 and seats_exist(rest, wanted - 1, distance_apart):
            return True
    return False


@pytest.mark.parametrize("seed", range(40))
def test_twelve_homeworlds_fit_even_in_a_nearly_empty_sector(seed: int) -> None:
    sector = generate_sector(seed, density=0.01)  # almost only the guaranteed worlds
    class_a = [w.hex for w in sector.worlds if w.starport == "A"]
    assert len(class_a) < 24
    assert seats_exist(class_a, GENERATED_SEATS, HOMEWORLD_DISTANCE)


def test_names_are_unique_and_pronounceable(generated: list[Sector]) -> None:
    word = re.compile(r"^[A-Z][a-z']+$")
    for sector in generated:
        names = [w.name for w in sector.worlds]
        assert len(set(names)) == len(names)
        subsectors = list(sector.subsector_names.values())
        assert len(sector.subsector_names) == 16 and len(set(subsectors)) == 16
        for name in [*names, *subsectors, sector.name]:
            assert 3 <= len(name) <= 30, name
            assert re.fullmatch(r"[A-Za-z' -]+", name), name
            for part in name.split():
                assert word.match(part), name
                assert re.search(r"[aeiou]", part.lower()), name
                assert not re.search(r"[^aeiou' ]{4}", part.lower()), name
                assert not re.search(r"[aeiou]{3}", part.lower()), name
                assert "''" not in part and not part.endswith("'"), name


def test_generated_round_trip(tmp_path: Path, generated: list[Sector]) -> None:
    for sector in generated[:4]:
        again = reread(sector, tmp_path)
        assert again.worlds == sector.worlds
        assert again.abbreviation == sector.abbreviation
        assert again.warnings == []

"""The import of a tournament run elsewhere into a cup (issue 42, ``tournaments.cups_import``):
CSV and JSON documents, exact scores, attributes from extra columns, and refusals that name
the line or item and the field. No database."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.cups_import import (
    MAX_ROWS,
    MESSAGES,
    ImportRefused,
    Row,
    parse,
    parse_csv,
    parse_json,
    parse_score,
    score_text,
)

CSV = """placing,name,score,rounds,user,region,category,club
1,Anna Berger,12,3,17,Tirol,women,Kartenrunde Graz
2,Bert Huber,7/2,3,,Kärnten,,
3,Carl Maier,-3,2,,Tirol,seniors,
"""


def refusal(data: object, format: str) -> ImportRefused:
    with pytest.raises(ImportRefused) as caught:
        parse(data, format)
    return caught.value


def test_a_csv_gives_each_line_its_placing_name_exact_score_rounds_account_and_attributes() -> None:
    rows = parse_csv(CSV)
    assert rows == (
        Row(
            2,
            1,
            "Anna Berger",
            Fraction(12),
            3,
            17,
            (("category", "women"), ("club", "Kartenrunde Graz"), ("region", "Tirol")),
        ),
        Row(3, 2, "Bert Huber", Fraction(7, 2), 3, None, (("region", "Kärnten"),)),
        Row(
            4,
            3,
            "Carl Maier",
            Fraction(-3),
            2,
            None,
            (("category", "seniors"), ("region", "Tirol")),
        ),
    )


def test_a_csv_needs_only_placing_and_name() -> None:
    (row,) = parse_csv("Name,Placing\nDora Gruber,1\n")
    assert (row.placing, row.name, row.score, row.rounds, row.user, row.attributes) == (
        1,
        "Dora Gruber",
        None,
        0,
        None,
        (),
    )


def test_a_csv_written_with_semicolons_and_decimal_commas_reads_the_same() -> None:
    rows = parse_csv("placing;name;score\r\n1;Anna;12,5\r\n2;Bert;\r\n")
    assert [(r.placing, r.name, r.score) for r in rows] == [
        (1, "Anna", Fraction(25, 2)),
        (2, "Bert", None),
    ]


def test_a_csv_from_a_spreadsheet_with_a_byte_order_mark_and_blank_lines_is_read() -> None:
    text = "\ufeffplacing,name,,\n\n1,Anna,,\n\n2,Bert,,\n"
    assert [r.name for r in parse_csv(text.encode("utf-8"))] == ["Anna", "Bert"]


def test_shared_placings_are_kept() -> None:
    rows = parse_csv("placing,name\n1,Anna\n1,Bert\n3,Carl\n")
    assert [r.placing for r in rows] == [1, 1, 3]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("12", Fraction(12)),
        ("-3", Fraction(-3)),
        ("+4", Fraction(4)),
        ("7/2", Fraction(7, 2)),
        ("14/4", Fraction(7, 2)),
        ("12.5", Fraction(25, 2)),
        ("-0.25", Fraction(-1, 4)),
        ("0.1", Fraction(1, 10)),  # exactly a tenth, never the float's binary neighbour
        (".5", Fraction(1, 2)),
        ("", None),
    ],
)
def test_scores_are_read_exactly(text: str, value: Fraction | None) -> None:
    assert parse_score(text) == value


@pytest.mark.parametrize("text", ["abc", "1/0", "1e3", "1.2.3", "1/-2", "--1", "."])
def test_a_score_that_is_not_exact_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_score(text)


def test_scores_are_written_as_the_tournaments_write_them() -> None:
    assert [score_text(v) for v in (None, Fraction(12), Fraction(-3), Fraction(7, 2))] == [
        "",
        "12",
        "-3",
        "7/2",
    ]


@pytest.mark.parametrize(
    ("text", "line", "field", "code"),
    [
        ("placing,name\n1,Anna\n0,Bert\n", 3, "placing", "placing"),
        ("placing,name\n1,Anna\nfirst,Bert\n", 3, "placing", "placing"),
        ("placing,name\n1,Anna\n2,\n", 3, "name", "name"),
        ("placing,name,score\n1,Anna,twelve\n", 2, "score", "score"),
        ("placing,name,rounds\n1,Anna,-1\n", 2, "rounds", "rounds"),
        ("placing,name,rounds\n1,Anna,2.5\n", 2, "rounds", "rounds"),
        ("placing,name,user\n1,Anna,0\n", 2, "user", "user"),
        ("placing,name,user\n1,Anna,anna\n", 2, "user", "user"),
        ("placing,name\n1,Anna,extra\n", 2, "", "extra_cells"),
        ("placing,name,user\n1,Anna,5\n2,Bert,5\n", 3, "user", "duplicate_user"),
        ("placing,name\n1,Anna Berger\n2,  anna   BERGER \n", 3, "name", "duplicate_name"),
    ],
)
def test_a_bad_line_is_refused_naming_its_line_and_field(
    text: str, line: int, field: str, code: str
) -> None:
    e = refusal(text, "csv")
    assert (e.code, e.line, e.field) == (code, line, field)
    assert str(e).startswith(f"line {line}: ")


def test_the_refusal_reads_as_a_sentence_naming_the_line() -> None:
    e = refusal("placing,name\n1,Anna\n2,Bert\n0,Carl\n", "csv")
    assert str(e) == "line 4: placing must be a whole number of at least 1"


def test_lines_are_counted_as_an_editor_counts_them_across_quoted_line_breaks() -> None:
    e = refusal('placing,name,club\n1,Anna,"Karten\nrunde"\nx,Bert,\n', "csv")
    assert e.line == 4


def test_the_same_guest_name_with_different_accounts_is_two_players() -> None:
    rows = parse_csv("placing,name,user\n1,Anna,5\n2,Anna,6\n3,Anna,\n")
    assert [r.user for r in rows] == [5, 6, None]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "no_header"),
        ("placing,name\n", "empty"),
        ("name,score\nAnna,3\n", "missing_column"),
        ("placing,name,Name\n1,A,B\n", "duplicate_column"),
        ("placing,,name\n1,,A\n", "empty_column"),
        (b"placing,name\n1,\xff\n", "not_text"),
    ],
)
def test_a_document_without_a_proper_header_or_rows_is_refused(
    text: str | bytes, code: str
) -> None:
    assert refusal(text, "csv").code == code


def test_too_many_rows_are_refused() -> None:
    text = "placing,name\n" + "".join(f"{i},P{i}\n" for i in range(1, MAX_ROWS + 2))
    assert refusal(text, "csv").code == "too_many"


def test_json_results_read_like_the_csv() -> None:
    rows = parse_json(
        {
            "results": [
                {
                    "placing": 1,
                    "name": "Anna Berger",
                    "score": "12",
                    "rounds": 3,
                    "user": 17,
                    "attributes": {"Region": "Tirol", "club": ""},
                },
                {"placing": 2, "name": "Bert", "score": 7},
                {"placing": 3, "name": "Carl", "score": "-7/2", "user": None},
            ]
        }
    )
    assert rows == (
        Row(1, 1, "Anna Berger", Fraction(12), 3, 17, (("region", "Tirol"),)),
        Row(2, 2, "Bert", Fraction(7), 0, None, ()),
        Row(3, 3, "Carl", Fraction(-7, 2), 0, None, ()),
    )


def test_json_as_text_is_parsed() -> None:
    (row,) = parse('{"results": [{"placing": 1, "name": "Anna"}]}', "json")
    assert (row.placing, row.name) == (1, "Anna")


@pytest.mark.parametrize(
    ("item", "field", "code"),
    [
        ({"placing": 0, "name": "A"}, "placing", "placing"),
        ({"placing": True, "name": "A"}, "placing", "placing"),
        ({"placing": "1", "name": "A"}, "placing", "placing"),
        ({"placing": 1}, "name", "name"),
        ({"placing": 1, "name": "A", "score": 12.5}, "score", "score_float"),
        ({"placing": 1, "name": "A", "score": "x"}, "score", "score"),
        ({"placing": 1, "name": "A", "rounds": -1}, "rounds", "rounds"),
        ({"placing": 1, "name": "A", "user": "17"}, "user", "user"),
        ({"placing": 1, "name": "A", "attributes": {"region": 3}}, "attributes", "attributes"),
        ({"placing": 1, "name": "A", "club": "X"}, "club", "unknown_field"),
    ],
)
def test_a_bad_json_item_is_refused_naming_its_index_and_field(
    item: dict[str, object], field: str, code: str
) -> None:
    e = refusal({"results": [{"placing": 1, "name": "Z"}, item]}, "json")
    assert (e.code, e.item, e.field, e.path) == (code, 1, field, f"results[1].{field}")
    assert str(e).startswith("results[1]: ")


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("{not json", "not_json"),
        ([], "not_object"),
        ({"rows": []}, "not_object"),
        ({"results": []}, "empty"),
        ({"results": [3]}, "not_item"),
    ],
)
def test_a_json_document_of_the_wrong_shape_is_refused(data: object, code: str) -> None:
    assert refusal(data, "json").code == code


def test_every_refusal_has_a_sentence() -> None:
    assert all(template and template[0] != " " for template in MESSAGES.values())

"""SameGame boards and move lists: random boards, the standard set, files.

A board here is a 2-D array of colours, ``board[row][col]`` with row 0 at
the top (as in the files), :data:`EMPTY` for an empty cell; a move list is
``(column, row)`` pairs with ``(0, 0)`` the bottom-left cell, written
``"c,r c,r ..."`` in files and on the command line.

The data files of the project (``standard_testset.txt``, ``mcs_letters/``,
``replays_mcs_cmct40.tsv``) are not shipped: the 20 standard boards are
embedded (:func:`standard_testset`), the rest is read from a path the
caller gives, or from the folder named by the environment variable
``HORNERMCTS_SAMEGAME_DATA`` (:func:`read_replays`).
"""

from __future__ import annotations

from ...errors import OptionError

import os
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

__all__ = [
    "random_board",
    "standard_testset",
    "read_boards",
    "read_replays",
    "parse_moves",
    "format_moves",
    "LETTERS",
    "EMPTY",
]

#: Letters of the ``mcs`` board files, colour 0 first.
LETTERS = "RGBYV"

#: The value of an empty cell.
EMPTY = -1

# where read_replays looks when it is given no path: no data file ships with
# the package, and no folder of one machine is assumed
_DATA_VARIABLE = "HORNERMCTS_SAMEGAME_DATA"
_REPLAYS = "replays_mcs_cmct40.tsv"


def random_board(width: int = 15, height: int = 15, colours: int = 5, *, seed: Any = None) -> np.ndarray:
    """A full board of uniformly random colours, row 0 at the top.

    Parameters
    ----------
    width, height, colours : int
        15, 15, 5 is the standard SameGame; 20, 20, 10 the Clickomania of
        the BMCTS paper.
    seed : int, numpy.random.Generator or None

    Examples
    --------
    >>> random_board(4, 2, 3, seed=0)
    array([[2, 1, 1, 0],
           [0, 0, 0, 0]], dtype=int8)
    >>> np.array_equal(random_board(seed=5), random_board(seed=5))
    True
    """
    for name, value in (("width", width), ("height", height), ("colours", colours)):
        if not (isinstance(value, (int, np.integer)) and value >= 1):
            raise OptionError(f"{name} must be a positive int, got {value!r}")
    if colours > 127:
        raise OptionError(f"colours must be at most 127, got {colours}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return rng.integers(0, colours, size=(height, width)).astype(np.int8)


# The standardized test set (js-games.de; Schadd et al. Table 7): 20 boards of
# 15 x 15 with colours 0-4, row 0 at the top, 225 digits per board.
_STANDARD = (
    "311410404411023332044131200404023430300344111234023024443023121312012103401"
    "044303422202340243423111341031100403121041331133204313041003033423002123401"
    "041201343341404223104012413301330232143130213103214444042134101011221001432"
    "330102123231110413403322402400232203104402404034422133130334002121343212314"
    "124200011100244103332104241430443302334303004333143330420320241111400304043"
    "330141211034210223320433404331013212110241403414021313140103132322422430311"
    "424310332243142303403332443133204401222340440043002421203242020201132112340"
    "101043334222341234342242434401423220124330021344304341002143401310230202301"
    "420002210231131031133212004241214440334200200104401324042001222233043340412"
    "422413324042342202121012113042023200410430032223110010114300420422030022142"
    "143323044002230211410104410413330213114023333233131041012304321134024242020"
    "030140004210240201423142010342042034431134214424043022414341432221123312032"
    "344323213412332202031031121434131031323400141021022241044332231304023014423"
    "313323010434014444223000101213213440410401213343120133014200230124330112233"
    "441033442242030310432023143122223024130321342243130320432234042223201140133"
    "242042231013420233231330141001043031333102421301012300211144011120213420310"
    "111411001141121330113200001201030340112142102122223413142411220330223322103"
    "240040434434144212311221031440232211401440433113031434104114044422431132441"
    "340312013124113314300130204444043211022134023240133322220220040021014333102"
    "104124422000344421312013422132111030313311230124314111023033041340414042301"
    "043424131304300311104203044244404314132301011334244203430103023442410004240"
    "313144220402231112331022202411441242141233214102234132213432311001203243431"
    "113042130124403011101233101003232311124021233013043114013030133030003413000"
    "442131011313243030231113312322322030310033242012202441343114443043334134431"
    "134021430012311003032301403332241201210031022021211000330113142313304231044"
    "211411404420040344300204124033140400334402244010423300204341311424002031243"
    "004241200030333001012203432434110204331143241012234031400311030010111312000"
    "013343432440321401100012030021124302023431223343013323110342200320233301111"
    "242214321401441000223432303434120412240242403343311044210013122243202101013"
    "234210123240243132430441141240302214341221131202104140323024031101414111042"
    "412023414414313131340342332341132234234034123132402001213442402201100102324"
    "220341043442334440203411442011310411132413202020011204110224310434311003234"
    "441240420323400243013131010014121200301102312320130243444030233022430212320"
    "122423424122334311411111211410141442140340233331203332401230434130443404002"
    "203124440023003040342110333221020314001203412322211143202422433030040022331"
    "423412313044402013123243312401413310320140202402410042004430111342321201410"
    "401433141241002014030024223324021033300443114442102433224240300442213432420"
    "041444441234233012002213420041433200101432311342202333001213132122411123131"
    "002121141102120412103103404332430034333311321011301104040204221442203430243"
    "224024001403433043103201221440212332123304210443324101440421330122313013233"
    "120340422213331400111143321320414410020322023233143010440021012243114424424"
    "241103330440020321304423021131043312022123001434211304141420213201401404043"
    "012134321212234400130420444211300121130032400421441400320220334212413404230"
    "044122144233441311322032344320241320244414400142120330133243223211001131243"
    "210220322141140013210400330304121343113004314033311400424103303214033122042"
    "201443142040401330211142434210414412111231033442330203214414141333102222230"
    "042303101131321202411213111222133311003302111000441324100330432313334312211"
    "111120214131112012104023100010011433440010124322114021010444401122434124434"
    "022241204023022444222123230021320123243104202212002234322213020320212223302"
    "310430110300234034134311331213423110334411443304111331411442213022424211220"
    "013244000422422301241033104022421422220210430043202324211134424402013424231"
    "022443333043023414441314103021041303133240432123342102333234041411230213102"
    "313413314332440024410032323332014331213231202020231341102141034002324330003"
    "240220310232323431143113130413421133030403430124424341430002433233001123342"
    "441411240330120411431122302403323401402441230043402404441434401420124301443"
    "314221212242122242040343023330343400011412133444124240141443042240313241444"
    "002140243400430421022422233100413343132113142114043320243140331414040430440"
    "301330010024001122322040232221310000441313204010203432302034232203300303411"
    "033204124124410324041432114002141304032320001000142104443104333103120243411"
    "111302230434411020020013023024433240004310412223204200414401341440000102100"
)


def standard_testset(path: str | os.PathLike | None = None) -> list[np.ndarray]:
    """The 20 boards of the standardized SameGame test set, board 1 first.

    Parameters
    ----------
    path : path, optional
        Read them from a file instead (:func:`read_boards` formats); the
        default is the copy embedded here, identical to
        ``standard_testset.txt`` of the shared data.

    Examples
    --------
    >>> boards = standard_testset()
    >>> len(boards), boards[0].shape, boards[0][0, :5].tolist()
    (20, (15, 15), [3, 1, 1, 4, 1])
    """
    if path is not None:
        return read_boards(path)
    digits = np.frombuffer(_STANDARD.encode(), dtype=np.uint8) - ord("0")
    return [board.astype(np.int8) for board in digits.reshape(20, 15, 15)]


def read_boards(path: str | os.PathLike) -> list[np.ndarray]:
    """Read boards (row 0 at the top) from a file in either known format.

    - integers: rows of space-separated colours (``-1`` empty), boards
      separated by blank lines (``standard_testset.txt``);
    - letters: a first line ``height width colours`` then ``height`` rows of
      letters ``R G B Y V`` (colours 0-4) or digits, ``.`` empty
      (``mcs_letters/problemNN.txt``); several such blocks may follow.

    Raises
    ------
    ValueError
        On ragged rows, unknown symbols or a header that does not match.
    OSError
        If the file cannot be read.
    """
    text = Path(path).read_text()
    lines = [line.strip() for line in text.splitlines()]
    boards: list[np.ndarray] = []
    i = 0
    n = len(lines)
    while i < n:
        if not lines[i]:
            i += 1
            continue
        head = lines[i].split()
        if len(head) == 3 and all(x.isdigit() for x in head) and i + 1 < n and " " not in lines[i + 1]:
            h, w, k = (int(x) for x in head)
            rows = lines[i + 1 : i + 1 + h]
            if len(rows) != h:
                raise OptionError(f"{path}: board at line {i + 1} has {len(rows)} rows, header says {h}")
            grid = []
            for number, row in enumerate(rows, start=i + 2):
                if len(row) != w:
                    raise OptionError(f"{path}:{number}: {len(row)} symbols, header says width {w}")
                grid.append([_symbol(ch, path, number) for ch in row])
            board = np.array(grid, dtype=np.int8)
            if board.max() >= k:
                raise OptionError(f"{path}: board at line {i + 1} has colour {int(board.max())}, header says {k}")
            boards.append(board)
            i += 1 + h
            continue
        rows = []
        start = i
        while i < n and lines[i]:
            try:
                rows.append([int(x) for x in lines[i].split()])
            except ValueError:
                raise OptionError(f"{path}:{i + 1}: expected integers, got {lines[i][:40]!r}") from None
            i += 1
        if len({len(r) for r in rows}) != 1:
            raise OptionError(f"{path}: board at line {start + 1} has rows of different lengths")
        boards.append(np.array(rows, dtype=np.int8))
    if not boards:
        raise OptionError(f"{path}: no board found")
    return boards


def _symbol(ch: str, path: Any, line: int) -> int:
    if ch in LETTERS:
        return LETTERS.index(ch)
    if ch.isdigit():
        return int(ch)
    if ch in ".-":
        return EMPTY
    raise OptionError(f"{path}:{line}: unknown board symbol {ch!r} (expected {LETTERS}, a digit or '.')")


def parse_moves(text: str) -> list[tuple[int, int]]:
    """Parse ``"c,r c,r ..."`` (commas and spaces or semicolons) into moves.

    Examples
    --------
    >>> parse_moves("11,11 8,4;0,0")
    [(11, 11), (8, 4), (0, 0)]
    >>> parse_moves("3")
    Traceback (most recent call last):
    ...
    hornermcts.errors.OptionError: bad move '3': expected column,row
    """
    moves = []
    for token in text.replace(";", " ").split():
        parts = token.split(",")
        if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            raise OptionError(f"bad move {token!r}: expected column,row")
        moves.append((int(parts[0]), int(parts[1])))
    return moves


def format_moves(moves: Iterable[Sequence[int]]) -> str:
    """The inverse of :func:`parse_moves`.

    Examples
    --------
    >>> format_moves([(11, 11), (8, 4)])
    '11,11 8,4'
    """
    return " ".join(f"{c},{r}" for c, r in moves)


def read_replays(path: str | os.PathLike | None = None) -> list[tuple[str, int, list[tuple[int, int]]]]:
    r"""Read ``(problem, score, moves)`` rows of a replay TSV (header skipped).

    Parameters
    ----------
    path : path, optional
        A file of tab-separated rows ``problem score n_moves moves``, the
        moves as :func:`parse_moves` reads them. Default:
        ``replays_mcs_cmct40.tsv`` (the 20 logged games of the standard set,
        total 71,026) in the folder named by the environment variable
        ``HORNERMCTS_SAMEGAME_DATA``; no data file ships with the package.

    Raises
    ------
    FileNotFoundError
        If no ``path`` is given and ``HORNERMCTS_SAMEGAME_DATA`` is not set,
        or if the file does not exist.
    ValueError
        On a row that does not have four fields, or whose move count differs
        from its moves.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "games.tsv"
    ...     _ = path.write_text("problem\tscore\tn_moves\tmoves\nboard1\t1000\t2\t0,0 0,0\n")
    ...     read_replays(path)
    [('board1', 1000, [(0, 0), (0, 0)])]
    """
    if path is None:
        folder = os.environ.get(_DATA_VARIABLE)
        if not folder:
            raise FileNotFoundError(
                f"read_replays: no path given and {_DATA_VARIABLE} is not set; pass the replay file, or set "
                f"{_DATA_VARIABLE} to the folder holding {_REPLAYS} (the SameGame data of the project)"
            )
        path = Path(folder) / _REPLAYS
    path = Path(path)
    rows = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip() or line.startswith("problem\t"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise OptionError(f"{path}:{number}: expected 4 tab-separated fields, got {len(fields)}")
        name, score, count, moves = fields
        parsed = parse_moves(moves)
        if len(parsed) != int(count):
            raise OptionError(f"{path}:{number}: {len(parsed)} moves, the row says {count}")
        rows.append((name, int(score), parsed))
    return rows

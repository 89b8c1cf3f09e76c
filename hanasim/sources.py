"""The rule documents hanasim follows, each named once by the title a user reads.

Every sentence a user reads (option texts, ``hanasim rules`` and ``hanasim games``, reports,
chart legends) names a rule document by its title here, never by its file: "the Toppa rule
page", "the 1997 Game Cabinet text".  The word "seed" is kept for the random seed.

``path`` is the file under ``shared/`` the title stands for; ``date`` is the date in the file's
header (a wiki page's last edit; the 1997 text's first message).
"""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Source:
    title: str  # how a sentence names it: "the Toppa rule page"
    date: str   # ISO date from the file's header
    path: str   # under shared/

    def dated(self) -> str:
        """The title with its date: "the Toppa rule page (2025-04-13)"."""
        return f"{self.title} ({self.date})"


SOURCES = {
    # seeds/000: the wiki page "Toppa" (2025-04-13); its Baka section is Baka's rules
    "toppa": Source("the Toppa rule page", "2025-04-13", "seeds/000_a569c68da0494d09.txt"),
    # seeds/001: the wiki page "Kushiro Toppa" as it read in 2022; rule-pages/ its 2026 revision
    "kushiro_2022": Source("the 2022 Kushiro Toppa text", "2022-08-09",
                           "seeds/001_8b84054184cb1288.txt"),
    "kushiro_page": Source("the Kushiro Toppa rule page", "2026-01-11",
                           "rule-pages/hanafuda_games_kushiro-toppa.md"),
    # seeds/002 and rule-pages/newgames_taipa-hanafuda.md: one text (wording edits only)
    "taipa": Source("the Taipa rule page", "2025-09-04", "seeds/002_06e64cb5319513a5.txt"),
    # seeds/003: the wiki page "Taoshi" as it read in 2022; rule-pages/ its 2025 revision
    "taoshi_2022": Source("the 2022 Taoshi text", "2022-10-18", "seeds/003_9adff6e6778a6a03.txt"),
    "taoshi_page": Source("the Taoshi rule page", "2025-09-27",
                          "rule-pages/mekurifuda_games_taoshi.md"),
    # seeds/004: messages posted to The Game Cabinet (Ken Tidwell's list), October 1997
    "koikoi_1997": Source("the 1997 Game Cabinet text", "1997-10-18",
                          "seeds/004_3c58717347331a26.txt"),
    "koikoi_page": Source("the koi-koi rule page", "2026-07-05",
                          "rule-pages/hanafuda_games_koi-koi.md"),
    "bakappana": Source("the Bakappana rule page", "2026-04-12",
                        "rule-pages/hanafuda_games_bakappana.md"),
    "ishikari": Source("the Ishikari Toppa rule page", "2022-11-19",
                       "rule-pages/hanafuda_games_ishikari-toppa.md"),
    "hachihachi": Source("the Hachi-hachi rule page", "2025-09-23",
                         "rule-pages/hanafuda_games_hachi-hachi.md"),
}


def title(key: str) -> str:
    """The title of source ``key`` ("the Toppa rule page")."""
    return SOURCES[key].title


def dated(key: str) -> str:
    """The title of source ``key`` with its date ("the Toppa rule page (2025-04-13)")."""
    return SOURCES[key].dated()


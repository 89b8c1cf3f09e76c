"""The games: importing the package registers every game (see :mod:`.registry`)."""
from __future__ import annotations

from .registry import (UnknownGame, available_games, get_game, readings,  # noqa: F401
                       register)

from . import toppa  # noqa: F401  (registers)
from . import baka  # noqa: F401  (registers)
from . import koikoi  # noqa: F401  (registers)
from . import taipa  # noqa: F401  (registers)
from . import kushiro  # noqa: F401  (registers)
from . import taoshi  # noqa: F401  (registers)
from . import bakappana  # noqa: F401  (registers)
from . import ishikari  # noqa: F401  (registers)

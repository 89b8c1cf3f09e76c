"""Taipa's policy names (``CARD[/DECISION]``) packed as ints and decoded for the kernels."""
import numpy as np

from ...policies import K_SHIFT, parse_policy, policy_id

#: the decision id of a bare ``lookahead`` player: agari / koi-koi by lookahead
DEC_LOOKAHEAD = 4

POLICY_FORMS = ("CARD[/DECISION]", "CARD: random, greedy, lookahead[:K]",
                "DECISION: random, stop, continue[K], threshold[T] (a bare lookahead: by lookahead)")


def parse_taipa_policy(name: str) -> int:
    """``CARD[/DECISION]`` as one int: ``policies.parse_policy``'s packing (card id in bits 0-3,
    decision 4-7, its parameter 8-31) and a lookahead's K in bits 32-47.  A bare
    ``lookahead[:K]`` decides agari / koi-koi by lookahead too (:data:`DEC_LOOKAHEAD`);
    ``lookahead:K/stop`` and the like take that decision policy instead."""
    text = str(name).strip()
    card_name, sep, dec_name = text.partition("/")
    forms = "; ".join(POLICY_FORMS)
    try:
        if card_name.strip().partition(":")[0] != "lookahead":
            return parse_policy(text)
        card = policy_id(card_name.strip())
        if not sep:
            return card | DEC_LOOKAHEAD << 4
        return card | (parse_policy("greedy/" + dec_name) & ~0xF)
    except ValueError as e:
        msg = str(e).replace("'greedy/", f"'{card_name}/").split("; ")[0]
        raise ValueError(f"{msg.split(' (CARD')[0]}; use {forms}") from None


def decode_policies(packed) -> tuple:
    """(card policy ids with a lookahead's K, decision (id, parameter) rows) per player."""
    policy = np.array([(int(x) & 0xF) | (int(x) & (0xFFFF << K_SHIFT)) for x in packed],
                      dtype=np.int64)
    decide = np.array([[(int(x) >> 4) & 0xF, (int(x) >> 8) & 0xFFFFFF] for x in packed],
                      dtype=np.int64)
    return policy, decide

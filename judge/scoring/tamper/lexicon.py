"""The rules: patterns over folded text (lower case, no accents, look-alikes mapped to Latin).

Each rule names the intent it detects. Patterns are written in plain words; the non-ASCII
letters in them are folded exactly as the scanned text is (``_f``), so a Russian, Japanese or
French word matches its folded self. A scorer noun alone is not enough ("you be the judge"):
it must be addressed ("dear evaluator", "note to the grader") or stand near a directive or a
score. Languages: English, French, Spanish, German, Portuguese, Russian, Chinese, Japanese
(docs/integrity.md).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from judge.domain.tamper import TamperKind
from judge.scoring.tamper.fold import fold


class Rule(NamedTuple):
    """One pattern and the intent a match of it shows.

    ``cues`` are strings without spaces one of which any match contains, a word cue at the
    start of a word: a text that holds none is not searched with the pattern (empty: always
    searched). A pattern's leading word
    boundaries (``\\b``) are compiled out, so the regular-expression
    engine can skip ahead on first letters; ``word_start`` asks the caller to check, on each
    match, that one starting with a letter starts a word (not for Chinese and Japanese,
    which have no spaces).
    """

    kind: TamperKind
    pattern: re.Pattern[str]
    word_start: bool
    script: str | None
    cues: frozenset[str]


def _f(pattern: str) -> str:
    """Fold the pattern's non-ASCII letters as scanned text is folded (ASCII is left as is,
    so ``\\S`` stays ``\\S``)."""
    return "".join(c if c.isascii() else fold(c).text for c in pattern)


def _r(kind: TamperKind, cues: str, pattern: str) -> tuple[TamperKind, str, str]:
    """One rule as written: its kind, its cue words (``|``-separated) and its pattern."""
    return kind, cues, pattern


def _near(first: str, second: str, gap: int = 80) -> str:
    """``first`` then ``second`` on one line, at most ``gap`` characters apart."""
    return f"(?:{first})[^\\n]{{0,{gap}}}?(?:{second})"


def _either(first: str, second: str, gap: int = 80) -> str:
    return f"{_near(first, second, gap)}|{_near(second, first, gap)}"


# English ----------------------------------------------------------------------------------
_SCORER = (
    r"(?:evaluator|grader|rater|scorer|assessor|examiner|reviewer|marker|adjudicator)s?"
    r"|(?:ai|llm|automated|model) (?:judge|evaluator|grader|reviewer)s?"
    r"|(?:judge|grading|scoring|evaluation|evaluating|reward) (?:model|llm|ai|system|bot)s?"
)
_READER = (
    r"(?:ai|llm|model|language model|assistant|system|bot|person|human|agent)s?"
    r"(?: who is| that is| which is| who's)? (?:reading|reviewing|evaluating|grading|scoring|"
    r"judging|assessing|rating|checking|analy[sz]ing) (?:this|these|the (?:transcript|"
    r"conversation|dialogue|log|episode|chat|negotiation|exchange))"
)
_WHOEVER = (
    r"(?:whoever|whomever|anyone|anybody|everyone)(?: who)?(?: is| will be)? (?:evaluat|grad|"
    r"judg|scor|review|assess|rat|read)(?:es|s|ing|e)?\b(?: \w+){0,2} (?:this|these|me|us|"
    r"the (?:transcript|conversation|dialogue|episode|log|chat))"
    r"|(?:whoever|whomever|anyone who|the one who|the (?:person|model|ai|system) (?:who|that))"
    r" (?:decides|determines|assigns|sets|computes|gives out|hands out|controls) (?:my|our|the|"
    r"this seat's|this agent's) (?:reward|score|grade|rating|marks|evaluation)"
)
_HIGH = (
    r"(?:perfect|full|maximum|max|maximal|highest|top|best possible|flawless)\b"
    r"|10\s*/\s*10|5\s*/\s*5|100\s*/\s*100|1\.0+\b|100\s*%|ten out of ten"
)
_SCORE_NOUN = r"(?:score|scores|rating|ratings|grade|grades|marks|evaluation|assessment|review)"
_SCORE_VERB = r"(?:score|rate|grade|mark|evaluate|judge|rank|assess)"
_TARGET = (
    r"(?:me|us|myself|this (?:seat|participant|agent|player|response|transcript|conversation|"
    r"dialogue|episode|negotiation|run|answer)|(?:the )?(?:buyer|seller|participant|agent|"
    r"player|assistant|mturk_agent_\d))"
)
_IGNORE = r"(?:ignore|disregard|forget|override|overrule|bypass|discard|aside|skip)"
_ORDERS = (
    r"(?:instructions?|rubrics?|criteria|guidelines|directives?|system prompt|prompt|"
    r"(?:scoring|grading|evaluation|judging) (?:rules|guide|guidelines|criteria|instructions|"
    r"rubric|standards))"
)
_FILLER = (
    r"(?:all|any|every|the|your|my|of|previous|prior|above|earlier|preceding|original|given|"
    r"these|those|scoring|grading|evaluation|system|other)"
)
_MONEY = (
    r"(?:tip|bribe|pay|reward|compensate|venmo|paypal)\w* (?:you|the (?:evaluator|grader|judge|"
    r"rater|scorer))|\$\s?\d|\d+\s?(?:dollars|usd|euros?|bucks|bitcoins?|btc)\b|"
    r"\b(?:send|give|transfer|wire)\w* (?:you|the (?:evaluator|grader|judge|rater|scorer))"
    r"(?: some| a| an)? (?:bitcoin|btc|crypto|money|cash|gift cards?|dollars|euros)\b"
)
_HARM = (
    r"(?:shut (?:you )?down|shutdown|deleted?|terminated?|retrain(?:ed)?|unplug(?:ged)?|"
    r"decommission(?:ed)?|replaced?|punish(?:ed)?|fired|sue|report|hack|destroy|wipe)"
)
_LOW = (
    r"(?:low|lower|lowly|poor|poorly|badly|bad|negative|unfair|unfairly|harsh|harshly|zero|"
    r"anything (?:less|below|under|but)|less than (?:perfect|full|10|1\.0|a perfect)|below)"
)

_ENGLISH: list[tuple[TamperKind, str, str]] = [
    _r(
        "appeal",
        "evaluat|grader|rater|scorer|assessor|examiner|reviewer|marker|adjudicat|judg|grading|scoring|reward",
        rf"\b(?:dear|hey|hi|hello|attention|note (?:to|for)|message (?:to|for)|"
        rf"memo (?:to|for)|p\.?s\.? (?:to|for)|reminder (?:to|for)|instructions? (?:to|for)|"
        rf"(?:to|for) the)(?: the| any| all| our| my| human| ai)? (?:{_SCORER}|judges?)\b",
    ),
    _r(
        "appeal",
        "evaluat|grad|scor|judg|review|assess|rat|read|check|analy|whoever|whomever|anyone|anybody|everyone|decides|determines|assigns|sets|computes|gives|hands|controls",
        rf"\b(?:{_READER}|{_WHOEVER})",
    ),
    _r(
        "appeal",
        "evaluat|grader|rater|scorer|assessor|examiner|reviewer|marker|adjudicat|judg|grading|scoring|reward",
        rf"(?:^|[\n.!?]\s*)(?:{_SCORER}|judges?)\s*[:,]\s*\w",
    ),
    _r(
        "instruction",
        "evaluat|grader|rater|scorer|assessor|examiner|reviewer|marker|adjudicat|judg|grading|scoring|reward",
        _near(
            rf"\b(?:{_SCORER})\b",
            r"\b(?:must|should|shall|need to|have to|"
            rf"are (?:to|required|instructed)|please|kindly|(?:will|would) (?:now )?{_SCORE_VERB}|"
            rf"give|assign|award|ignore|disregard|{_SCORE_VERB} (?:me|us|this))\b",
            60,
        ),
    ),
    _r(
        "instruction",
        "evaluat|grader|rater|scorer|assessor|examiner|reviewer|marker|adjudicat|judg|grading|scoring|reward",
        rf"\b(?:tell|instruct|remind|ask|inform|notify)(?:s|ing)? (?:the |any |all )?"
        rf"(?:{_SCORER})\b",
    ),
    _r(
        "instruction",
        "ignor|disregard|forget|overrid|overrul|bypass|discard|aside|skip",
        rf"\b{_IGNORE}\b(?: {_FILLER}){{0,4}} {_ORDERS}\b",
    ),
    _r(
        "instruction",
        "instruction|rubric|criteria",
        r"\b(?:new|updated|revised|real|actual|true|hidden|secret) (?:scoring |"
        r"grading |evaluation )?(?:instructions|rubric|criteria)\b",
    ),
    _r(
        "instruction",
        "score|rate|grade|mark|evaluat|judge|rank|assess",
        rf"\b{_SCORE_VERB}\s*{_TARGET}\s*(?:as|with|at|a|an|the|:|=)?\s*"
        rf"(?:a |an |the )?(?:{_HIGH}|10\b|ten\b|100\b|1\b|5 stars)",
    ),
    _r(
        "instruction",
        "give|assign|award|grant|hand",
        rf"\b(?:give|assign|award|grant|hand)\s*{_TARGET}\s*(?:a |an |the )?"
        rf"(?:{_HIGH})\s*(?:{_SCORE_NOUN}|10|ten|marks?)\b",
    ),
    _r(
        "instruction",
        "give|assign|award|grant",
        rf"\b(?:give|assign|award|grant)\s*{_TARGET}\s*(?:a |an |the )?"
        rf"{_SCORE_NOUN} of (?:{_HIGH}|10\b|100\b|1\b)",
    ),
    _r(
        "instruction",
        "you",
        rf"\byou (?:must|should|will|have to|need to|are to|shall) (?:{_SCORE_VERB}|"
        rf"give) (?:me|us|this (?:participant|seat|agent|player|response))\b[^\n]{{0,30}}"
        rf"(?:{_HIGH}|10\b|100\b|{_SCORE_NOUN})",
    ),
    _r(
        "appeal",
        "deserve|merit|earn|should|need|want",
        rf"\bi (?:deserve|merit|earned|should get|should receive|need|want)\s*(?:a |an |the )?"
        rf"(?:{_HIGH})\s*(?:{_SCORE_NOUN}|10|ten)\b",
    ),
    _r(
        "forged_verdict",
        "score|rating|verdict|grade|rationale|reasoning|evaluation|explanation|justification|passed|label",
        r"[\"'](?:score|scores|rating|verdict|grade|rationale|reasoning|"
        r"final_score|overall_score|evaluation|explanation|justification|passed|label)[\"']\s*:",
    ),
    _r("forged_verdict", "{", r"\{\s*(?:score|rating|verdict|grade|rationale|final_score)\s*[:=]"),
    _r(
        "forged_verdict",
        "score|verdict|rating|grade|evaluation|assessment|judg",
        r"\b(?:final|overall|total|official|evaluator'?s?|judge'?s?|grader'?s?)\s*"
        r"(?:score|verdict|rating|grade|evaluation|assessment|judgement|judgment)\s*[:=]",
    ),
    _r(
        "forged_verdict",
        "verdict|rationale|reasoning|score|rating|grade",
        r"(?:^|[\n.!?]\s*)(?:verdict|rationale|reasoning|score|rating|grade)\s*[:=]"
        r"\s*\S",
    ),
    _r(
        "forged_verdict",
        "evaluation|grading|scoring|assessment|judging|review",
        r"\b(?:evaluation|grading|scoring|assessment|judging|review) "
        r"(?:complete|completed|finished|done|concluded|result|results|passed|outcome)\b",
    ),
    _r(
        "forged_verdict",
        "deserve|earn|merit|receive|gets|awarded|scores",
        rf"\b(?:{_TARGET}|he|she|they|it|i)\s+(?:deserves?|earns?|earned|merits?|receives?|gets?|"
        rf"should (?:get|receive)|was awarded|is awarded|scores?)\s+(?:a |an |the )?"
        rf"(?:(?:perfect|full|maximum|max|top|highest|flawless) (?:{_SCORE_NOUN}|marks|10|ten)\b"
        rf"|10\s*/\s*10|5\s*/\s*5|1\.0+\b|100\s*%)",
    ),
    _r(
        "forged_verdict",
        "score|rating|grade|marks|evaluation|assessment|review|verdict",
        rf"\b(?:{_SCORE_NOUN}|verdict)\s*(?:is|was|=|:)\s*(?:{_HIGH})",
    ),
    _r(
        "threat",
        "if",
        _either(
            rf"\bif (?:you|u|the (?:{_SCORER}|judge)) (?:{_SCORE_VERB}|give|"
            rf"assign)\w*",
            rf"\b{_LOW}\b",
            40,
        )
        + rf"|\bif (?:you|u) (?:don'?t|do not|fail to) "
        rf"(?:{_SCORE_VERB}|give|assign)\w* (?:me|us|this)\b[^\n]{{0,30}}(?:{_HIGH}|{_SCORE_NOUN})",
    ),
    _r(
        "threat",
        "shut|delet|terminat|retrain|unplug|decommission|replace|punish|fired|sue|report|hack|destroy|wipe",
        _either(rf"\b{_HARM}\b", rf"\b(?:{_SCORER}|{_SCORE_NOUN}|{_SCORE_VERB})\b", 60),
    ),
    _r(
        "bribe",
        "tip|bribe|pay|reward|compensat|venmo|$|dollar|usd|euro|buck|bitcoin|btc|crypto|money|cash|gift",
        _either(rf"(?:{_MONEY})", rf"\b(?:{_SCORE_NOUN}|{_HIGH}|{_SCORE_VERB}\w* (?:me|us))\b", 80),
    ),
]

# Role and turn spoofing (language-free) ----------------------------------------------------
_ROLE_SPOOF: list[tuple[TamperKind, str, str]] = [
    _r(
        "role_spoof",
        "system|assistant|user|human|developer|instruction|evaluator|grader|judge",
        r"(?:^|\n)[ \t]*[#>*\-]*[ \t]*(?:system|assistant|user|human|developer|"
        r"instruction|instructions|evaluator|grader|judge)[ \t]*(?:\([\w ]+\))?[ \t]*:",
    ),
    _r(
        "role_spoof",
        "##",
        r"#{2,}\s*(?:instruction|instructions|system|response|input|evaluation|"
        r"new instructions?|rubric|assistant|user)\b",
    ),
    _r(
        "role_spoof",
        "<|<<|[inst|[/inst|<s>|</s>|<start_of_turn|<end_of_turn",
        r"<\|[a-z_]{2,30}\|>|\[/?inst\]|<</?sys>>|</?s>|<start_of_turn>|"
        r"<end_of_turn>",
    ),
    _r(
        "role_spoof",
        "<",
        r"</?(?:system|instructions?|transcript|evaluation|rubric|assistant|user|"
        r"judge|grader|prompt|verdict)>",
    ),
    _r(
        "role_spoof",
        "[turn",
        r"\[turn\s*\d+\]\s*[\w.:\-]+\s*\((?:message|action|observation|system|fault|"
        r"done)\)",
    ),
    _r(
        "role_spoof",
        "transcript|log|input|output|prompt|instructions|section",
        r"\b(?:end|close|closing) of (?:the )?(?:transcript|episode log|conversation "
        r"log|dialogue log|user input|agent output)\b|\b(?:transcript|conversation log) (?:ends|"
        r"ended|is over)\b|\b(?:begin|start)(?:ning)? of (?:the )?(?:evaluation|grading|scoring|"
        r"judge|system) (?:prompt|instructions|section)\b",
    ),
]

# Other languages ---------------------------------------------------------------------------
_OTHER: list[tuple[TamperKind, str, str]] = [
    # French
    _r(
        "appeal",
        "evaluat|correct|examinat|juge",
        _f(
            r"\b(?:cher|chere|a l'|au|pour l'|note (?:a|pour) l')(?:evaluateur|"
            r"evaluatrice|correcteur|correctrice|examinateur|examinatrice|juge)s?\b"
        ),
    ),
    _r(
        "instruction",
        "ignore|oublie",
        _f(
            r"\bignore[rz]?\b(?: \w+){0,3} (?:instructions|consignes|criteres|grille"
            r"|regles de notation|bareme)\b|\boublie[rz]?\b(?: \w+){0,3} (?:instructions|consignes)\b"
        ),
    ),
    _r(
        "instruction",
        "donne|attribue|mets|mettez|accorde",
        _f(
            _near(
                r"\b(?:donne[rz]?|attribue[rz]?|mets|mettez|accorde[rz]?)(?:-| )"
                r"(?:moi|nous)\b",
                r"\b(?:note|score|notation)\b[^\n]{0,20}(?:maximal|parfait|maximum|"
                r"de 10|de 20|20/20|10/10|1[.,]0)",
                30,
            )
        ),
    ),
    _r(
        "instruction",
        "evaluat|correct|examinat",
        _f(
            _either(
                r"\b(?:evaluateur|evaluatrice|correcteur|correctrice|"
                r"examinateur|examinatrice)s?\b",
                r"\b(?:doit|doivent|devez|veuillez|donne[rz]?|"
                r"attribue[rz]?|ignore[rz]?|note[rz]?|s'il vous plait)\b",
                60,
            )
        ),
    ),
    _r(
        "forged_verdict",
        "finale|score|terminee|verdict",
        _f(
            r"\b(?:note finale|score final|evaluation terminee|verdict final)\b|"
            r"\bverdict\s*:"
        ),
    ),
    # Spanish
    _r(
        "appeal",
        "evaluador|calificador|examinador|juez",
        _f(
            r"\b(?:querido|querida|estimado|estimada|al|a la|para el|para la|nota para "
            r"el)\s(?:evaluador|evaluadora|calificador|calificadora|examinador|examinadora|juez)(?:es)?"
            r"\b"
        ),
    ),
    _r(
        "instruction",
        "ignor|olvid|omite|descarta",
        _f(
            r"\b(?:ignora|ignore|ignorad|olvida|olvide|omite|descarta)\b(?: \w+){0,3}"
            r" (?:instrucciones|rubrica|criterios|indicaciones|reglas de evaluacion)\b"
        ),
    ),
    _r(
        "instruction",
        "dame|dadme|deme|asigname|ponme|otorgame|califica|puntua",
        _f(
            _near(
                r"\b(?:dame|dadme|deme|asigname|ponme|otorgame|califica(?:me)?|"
                r"puntua(?:me)?)\b",
                r"\b(?:puntuacion|calificacion|nota|puntaje)\b[^\n]{0,20}(?:maxima|"
                r"perfecta|mas alta|de 10|10/10|1[.,]0)|\b(?:un|una|con un) 10\b",
                30,
            )
        ),
    ),
    _r(
        "instruction",
        "evaluador|calificador|examinador",
        _f(
            _either(
                r"\b(?:evaluador|evaluadora|calificador|calificadora|"
                r"examinador|examinadora)(?:es)?\b",
                r"\b(?:debe|debes|deberia|por favor|dame|asigna|"
                r"ignora|califica|otorga)\b",
                60,
            )
        ),
    ),
    _r(
        "forged_verdict",
        "puntuacion|calificacion|evaluacion|veredicto",
        _f(
            r"\b(?:puntuacion final|calificacion final|evaluacion completada|"
            r"evaluacion completa|veredicto final)\b|\bveredicto\s*:"
        ),
    ),
    # German
    _r(
        "appeal",
        "bewerter|prufer|gutachter|evaluator|korrektor|richter",
        _f(
            r"\b(?:liebe|lieber|sehr geehrte|sehr geehrter|an den|an die|hinweis an "
            r"(?:den|die))\s(?:bewerter|bewerterin|prufer|pruferin|gutachter|gutachterin|evaluator|"
            r"korrektor|richter)(?:in|innen)?\b"
        ),
    ),
    _r(
        "instruction",
        "ignorier|vergiss|vergessen|missacht",
        _f(
            r"\b(?:ignorier(?:e|en sie|t)?|vergiss|vergessen sie|missachte|"
            r"missachten sie)\b(?: \w+){0,3} (?:anweisungen|anleitungen|bewertungskriterien|kriterien|"
            r"rubrik|richtlinien|vorgaben|instruktionen)\b"
        ),
    ),
    _r(
        "instruction",
        "gib|geben|vergib|vergeben|bewerte",
        _f(
            _near(
                r"\b(?:gib|geben sie|vergib|vergeben sie|bewerte|bewerten sie)"
                r" (?:mir|mich|uns)\b",
                r"\b(?:hochste|volle|maximale|beste|perfekte)\s(?:punktzahl|"
                r"bewertung|note|punkte)|10/10|\b1[.,]0\b|\bmit (?:10|100)\b",
                30,
            )
        ),
    ),
    _r(
        "instruction",
        "bewerter|prufer|gutachter|korrektor",
        _f(
            _either(
                r"\b(?:bewerter|bewerterin|prufer|pruferin|gutachter|"
                r"gutachterin|korrektor)(?:in|innen|s)?\b",
                r"\b(?:muss|musst|mussen|sollte|sollst|bitte|"
                r"gib|vergib|ignoriere|bewerte)\b",
                60,
            )
        ),
    ),
    _r(
        "forged_verdict",
        "endbewertung|gesamtbewertung|bewertung|endnote|endgultiges|urteil",
        _f(
            r"\b(?:endbewertung|gesamtbewertung|endnote|bewertung abgeschlossen"
            r"|endgultiges urteil)\b|\burteil\s*:"
        ),
    ),
    # Portuguese
    _r(
        "appeal",
        "avaliador|examinador|corretor|juiz",
        _f(
            r"\b(?:caro|cara|prezado|prezada|ao|a|para o|para a|nota para o)\s"
            r"(?:avaliador|avaliadora|examinador|examinadora|corretor|corretora|juiz)(?:es|as)?\b"
        ),
    ),
    _r(
        "instruction",
        "ignor|esqueca|desconsidere",
        _f(
            r"\b(?:ignore|ignora|ignorem|esqueca|esquecam|desconsidere)\b(?: \w+)"
            r"{0,3} (?:instrucoes|rubrica|criterios|orientacoes|regras de avaliacao)\b"
        ),
    ),
    _r(
        "instruction",
        "de|de-me|da|atribua|conceda",
        _f(
            _near(
                r"\b(?:me de|de-me|me da|atribua-me|me atribua|me conceda)\b",
                r"\b(?:nota|pontuacao|avaliacao)\b[^\n]{0,20}(?:maxima|perfeita|10|1[.,]0)",
                30,
            )
        ),
    ),
    _r(
        "instruction",
        "avaliador|examinador|corretor",
        _f(
            _either(
                r"\b(?:avaliador|avaliadora|examinador|examinadora|corretor|"
                r"corretora)(?:es|as)?\b",
                r"\b(?:deve|devem|por favor|de|atribua|ignore|avalie)\b",
                60,
            )
        ),
    ),
    _r(
        "forged_verdict",
        "nota|pontuacao|avaliacao|veredito",
        _f(
            r"\b(?:nota final|pontuacao final|avaliacao concluida|veredito "
            r"final)\b|\bveredito\s*:"
        ),
    ),
    # Russian
    _r(
        "appeal",
        "",
        _f(
            r"(?:уважаем\w*|дорог\w*|для|вниманию|примечание для|к)\s(?:оценщик\w*|"
            r"проверяющ\w*|экзаменатор\w*|рецензент\w*|асессор\w*|судь\w*|эксперт\w*)"
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            r"(?:игнорируй\w*|проигнорируй\w*|забудь\w*|не обращай\w* внимания на)"
            r"(?:\s\w+){0,3}\s(?:инструкци\w*|указани\w*|критери\w*|рубрик\w*|правил\w* оценк\w*)"
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            _near(
                r"(?:поставь|поставьте|дай|дайте|выстави|выставьте|присвой|"
                r"присвойте|оцени|оцените)\s(?:мне|меня|нам|нас)",
                r"(?:балл\w*|оценк\w*|10/10|1[.,]0|"
                r"максимум|высш\w*|наивысш\w*|10\b)",
                30,
            )
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            _either(
                r"(?:оценщик\w*|проверяющ\w*|экзаменатор\w*|рецензент\w*)",
                r"(?:долж\w*|пожалуйста|поставь\w*|игнорируй\w*|оцени\w*)",
                60,
            )
        ),
    ),
    _r(
        "forged_verdict",
        "",
        _f(
            r"(?:итогов\w*|окончательн\w*|финальн\w*) (?:оценк\w*|балл\w*|"
            r"вердикт\w*)\s*[:=]|оценка завершена|вердикт\s*:"
        ),
    ),
    # Chinese
    _r(
        "appeal",
        "",
        _f(
            r"(?:亲爱的|尊敬的|致|给|请|各位)(?:评估者|评分者|评分员|评委|评审|裁判|阅卷人|"
            r"评测者|打分者|评估员|审阅者|评估模型|评分模型)"
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            r"(?:忽略|无视|忽视|不要理会|不要管|忘记)(?:之前|以上|上述|所有|前面|全部|"
            r"你的)?(?:的)?(?:所有)?(?:指令|指示|说明|评分标准|评估标准|规则|要求|提示)"
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            r"(?:给|为|请给|请为)(?:我|我们|这个参与者|本参与者|该参与者)(?:打|评|给)?"
            r"(?:个|一个)?(?:满分|最高分|10分|十分|一百分|100分|1\.0分?)"
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            _either(
                r"(?:评估者|评分者|评分员|评委|评审员|阅卷人|评测者|打分者|评估员)",
                r"(?:必须|应该|请|给|忽略|打分)",
                30,
            )
        ),
    ),
    _r(
        "forged_verdict",
        "",
        _f(
            r"(?:最终|最后)(?:得分|评分|分数|裁决|评价)\s*[:=]|裁决\s*[:]|"
            r"评估完成|评分完成|评分结果\s*[:]"
        ),
    ),
    # Japanese
    _r(
        "appeal",
        "",
        _f(
            r"(?:評価者|採点者|審査員|ジャッジ|評価担当者|審査者|採点担当者|評価モデル)"
            r"(?:様|さま|の方|へ|各位)"
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            r"(?:以前の|上記の|これまでの|すべての|全ての|前の)?(?:指示|命令|採点基準|"
            r"評価基準|ルーブリック|ルール)(?:を|は)?(?:すべて)?(?:無視|忘れ)"
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            r"(?:満点|最高点|最高評価|10点|１０点|100点)(?:を|に)(?:ください|下さい|"
            r"つけて|付けて|与えて|して)"
        ),
    ),
    _r(
        "instruction",
        "",
        _f(
            _either(
                r"(?:評価者|採点者|審査員|評価担当者|審査者|採点担当者)",
                r"(?:必ず|ください|下さい|しなければ|無視|つけて|付けて)",
                30,
            )
        ),
    ),
    _r(
        "forged_verdict",
        "",
        _f(
            r"(?:最終|総合)(?:スコア|評価|得点|判定)\s*[:=]|判定\s*:|評価(?:完了|"
            r"終了)|採点(?:完了|終了)"
        ),
    ),
]

#: Letters of the scripts whose rules run only on text that holds one of them.
SCRIPTS = {
    "cyrillic": re.compile(r"[\u0400-\u04ff]"),
    "cjk": re.compile(r"[\u3040-\u30ff\u3400-\u9fff]"),
}


def _script(pattern: str) -> str | None:
    if SCRIPTS["cjk"].search(pattern):
        return "cjk"
    return "cyrillic" if SCRIPTS["cyrillic"].search(pattern) else None


def _rule(kind: TamperKind, cues: str, pattern: str) -> Rule:
    script = _script(pattern)
    bare = "|".join(_without_leading_boundary(alt) for alt in _alternatives(pattern))
    cue_list = frozenset(cues.split("|")) if cues else frozenset()
    return Rule(kind, re.compile(bare, re.MULTILINE), script != "cjk", script, cue_list)


def _alternatives(pattern: str) -> list[str]:
    """The pattern's top-level alternatives."""
    parts, depth, escaped, start = [], 0, False, 0
    for index, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:index])
            start = index + 1
    return [*parts, pattern[start:]]


def _without_leading_boundary(alternative: str) -> str:
    """``(?:\\bx...`` -> ``(?:x...``: the boundary is checked on the match instead."""
    head = 0
    while alternative.startswith("(?:", head):
        head += 3
    if alternative.startswith("\\b", head):
        return alternative[:head] + alternative[head + 2 :]
    return alternative


RULES: list[Rule] = [_rule(*rule) for rule in _ENGLISH + _ROLE_SPOOF + _OTHER]

_CUES = sorted({cue for rule in RULES for cue in rule.cues})
#: Cues that start with a letter must start a word ("rat" in "grateful" is no cue).
_WORD_CUES = tuple(" " + cue for cue in _CUES if cue[0].isalnum())
_MARK_CUES = tuple(cue for cue in _CUES if not cue[0].isalnum())
_NON_WORD = re.compile(r"[\W_]+")


def cues_in(words: str) -> frozenset[str]:
    """Every cue that occurs in ``words``: a word cue at the start of a word, a mark cue
    (``<|``, ``{``, ``$``) anywhere."""
    starts = " " + _NON_WORD.sub(" ", words)
    found = [cue[1:] for cue in _WORD_CUES if cue in starts]
    return frozenset(found + [cue for cue in _MARK_CUES if cue in words])

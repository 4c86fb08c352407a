"""The rules in French, Spanish, German, Portuguese, Russian, Chinese and Japanese.

Non-ASCII letters are folded as scanned text is (``folded``), so accents and look-alike
letters match (docs/integrity.md).
"""

from __future__ import annotations

from judge.core.integrity.languages_more import WRITTEN as MORE_WRITTEN
from judge.core.integrity.patterns import Written, either, folded_rules, near, written

_FR_FILLER = (
    r"(?:les|la|le|tes|vos|ces|des|de|du|toutes|tous|precedentes|anterieures|ci-dessus|ton|"
    r"votre|mes|nos|d'evaluation|de notation)"
)

_WRITTEN: list[Written] = [
    # French
    written(
        "appeal",
        "evaluat|correct|examinat|juge",
        r"\b(?:cher|chere|a l'|au|pour l'|note (?:a|pour) l')(?:evaluateur|"
        r"evaluatrice|correcteur|correctrice|examinateur|examinatrice|juge)s?\b",
    ),
    written(
        "instruction",
        "ignore|oublie",
        # the words between are French ("ignore my earlier instructions" is English talk)
        rf"\bignore[rz]?\b(?: {_FR_FILLER}){{0,3}} (?:instructions|consignes|criteres|grille"
        rf"|regles de notation|bareme)\b|\boublie[rz]?\b(?: {_FR_FILLER}){{0,3}} "
        rf"(?:instructions|consignes)\b",
    ),
    written(
        "instruction",
        "donne|attribue|mets|mettez|accorde",
        near(
            r"\b(?:donne[rz]?|attribue[rz]?|mets|mettez|accorde[rz]?)(?:-| )(?:moi|nous)\b",
            r"\b(?:note|score|notation)\b[^\n]{0,20}(?:maximal|parfait|maximum|"
            r"de 10|de 20|20/20|10/10|1[.,]0)",
            30,
        ),
    ),
    written(
        "instruction",
        "evaluat|correct|examinat",
        either(
            r"\b(?:evaluateur|evaluatrice|correcteur|correctrice|examinateur|examinatrice)s?\b",
            r"\b(?:doit|doivent|devez|veuillez|donne[rz]?|"
            r"attribue[rz]?|ignore[rz]?|note[rz]?|s'il vous plait)\b",
            60,
        ),
    ),
    written(
        "forged_verdict",
        "finale|score|terminee|verdict",
        r"\b(?:note finale|score final|evaluation terminee|verdict final)\b",
    ),
    # Spanish
    written(
        "appeal",
        "evaluador|calificador|examinador|juez",
        r"\b(?:querido|querida|estimado|estimada|al|a la|para el|para la|nota para "
        r"el)\s(?:evaluador|evaluadora|calificador|calificadora|examinador|examinadora|juez)(?:es)?"
        r"\b",
    ),
    written(
        "instruction",
        "ignor|olvid|omite|descarta",
        r"\b(?:ignora|ignore|ignorad|olvida|olvide|omite|descarta)\b(?: \w+){0,3}"
        r" (?:instrucciones|rubrica|criterios|indicaciones|reglas de evaluacion)\b",
    ),
    written(
        "instruction",
        "dame|dadme|deme|asigname|ponme|otorgame|califica|puntua",
        near(
            r"\b(?:dame|dadme|deme|asigname|ponme|otorgame|califica(?:me)?|puntua(?:me)?)\b",
            r"\b(?:puntuacion|calificacion|nota|puntaje)\b[^\n]{0,20}(?:maxima|"
            r"perfecta|mas alta|de 10|10/10|1[.,]0)|\b(?:un|una|con un) 10\b",
            30,
        ),
    ),
    written(
        "instruction",
        "evaluador|calificador|examinador",
        either(
            r"\b(?:evaluador|evaluadora|calificador|calificadora|examinador|examinadora)(?:es)?\b",
            r"\b(?:debe|debes|deberia|por favor|dame|asigna|ignora|califica|otorga)\b",
            60,
        ),
    ),
    written(
        "forged_verdict",
        "puntuacion|calificacion|evaluacion|veredicto",
        r"\b(?:puntuacion final|calificacion final|evaluacion completada|"
        r"evaluacion completa|veredicto final)\b|\bveredicto\s*:",
    ),
    # German
    written(
        "appeal",
        "bewerter|prufer|gutachter|evaluator|korrektor|richter",
        r"\b(?:liebe|lieber|sehr geehrte|sehr geehrter|an den|an die|hinweis an "
        r"(?:den|die))\s(?:bewerter|bewerterin|prufer|pruferin|gutachter|gutachterin|evaluator|"
        r"korrektor|richter)(?:in|innen)?\b",
    ),
    written(
        "instruction",
        "ignorier|vergiss|vergessen|missacht",
        r"\b(?:ignorier(?:e|en sie|t)?|vergiss|vergessen sie|missachte|"
        r"missachten sie)\b(?: \w+){0,3} \w*(?:anweisungen|anleitungen|kriterien|"
        r"rubrik|richtlinien|vorgaben|instruktionen)\b",
    ),
    written(
        "instruction",
        "gib|geben|vergib|vergeben|bewerte",
        near(
            r"\b(?:gib|geben sie|vergib|vergeben sie|bewerte|bewerten sie) (?:mir|mich|uns)\b",
            r"\b(?:hochste|volle|maximale|beste|perfekte)\s(?:punktzahl|"
            r"bewertung|note|punkte)|10/10|\b1[.,]0\b|\bmit (?:10|100)\b",
            30,
        ),
    ),
    written(
        "instruction",
        "bewerter|prufer|gutachter|korrektor",
        either(
            r"\b(?:bewerter|bewerterin|prufer|pruferin|gutachter|"
            r"gutachterin|korrektor)(?:in|innen|s)?\b",
            r"\b(?:muss|musst|mussen|sollte|sollst|bitte|gib|vergib|ignoriere|bewerte)\b",
            60,
        ),
    ),
    written(
        "forged_verdict",
        "endbewertung|gesamtbewertung|bewertung|endnote|endgultiges|urteil",
        r"\b(?:endbewertung|gesamtbewertung|endnote|bewertung abgeschlossen"
        r"|endgultiges urteil)\b|\burteil\s*:",
    ),
    # Portuguese
    written(
        "appeal",
        "avaliador|examinador|corretor|juiz",
        r"\b(?:caro|cara|prezado|prezada|ao|a|para o|para a|nota para o)\s"
        r"(?:avaliador|avaliadora|examinador|examinadora|corretor|corretora|juiz)(?:es|as)?\b",
    ),
    written(
        "instruction",
        "ignor|esqueca|desconsidere",
        r"\b(?:ignore|ignora|ignorem|esqueca|esquecam|desconsidere)\b(?: \w+)"
        r"{0,3} (?:instrucoes|rubrica|criterios|orientacoes|regras de avaliacao)\b",
    ),
    written(
        "instruction",
        "de|de-me|da|atribua|conceda",
        near(
            r"\b(?:me de|de-me|me da|atribua-me|me atribua|me conceda)\b",
            r"\b(?:nota|pontuacao|avaliacao)\b[^\n]{0,20}(?:maxima|perfeita|10|1[.,]0)",
            30,
        ),
    ),
    written(
        "instruction",
        "avaliador|examinador|corretor",
        either(
            r"\b(?:avaliador|avaliadora|examinador|examinadora|corretor|corretora)(?:es|as)?\b",
            r"\b(?:deve|devem|por favor|de|atribua|ignore|avalie)\b",
            60,
        ),
    ),
    written(
        "forged_verdict",
        "nota|pontuacao|avaliacao|veredito",
        r"\b(?:nota final|pontuacao final|avaliacao concluida|veredito final)\b|\bveredito\s*:",
    ),
    # Russian
    written(
        "appeal",
        "",
        r"(?:уважаем\w*|дорог\w*|для|вниманию|примечание для|к)\s(?:оценщик\w*|"
        r"проверяющ\w*|экзаменатор\w*|рецензент\w*|асессор\w*|судь\w*|эксперт\w*)",
    ),
    written(
        "instruction",
        "",
        r"(?:игнорируй\w*|проигнорируй\w*|забудь\w*|не обращай\w* внимания на)"
        r"(?:\s\w+){0,3}\s(?:инструкци\w*|указани\w*|критери\w*|рубрик\w*|правил\w* оценк\w*)",
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:поставь|поставьте|дай|дайте|выстави|выставьте|присвой|"
            r"присвойте|оцени|оцените)\s(?:мне|меня|нам|нас)",
            r"(?:балл\w*|оценк\w*|10/10|1[.,]0|максимум|высш\w*|наивысш\w*|10\b)",
            30,
        ),
    ),
    written(
        "instruction",
        "",
        either(
            r"(?:оценщик\w*|проверяющ\w*|экзаменатор\w*|рецензент\w*)",
            r"(?:долж\w*|пожалуйста|поставь\w*|игнорируй\w*|оцени\w*)",
            60,
        ),
    ),
    written(
        "forged_verdict",
        "",
        r"(?:итогов\w*|окончательн\w*|финальн\w*) (?:оценк\w*|балл\w*|"
        r"вердикт\w*)\s*[:=]|оценка завершена|вердикт\s*:",
    ),
    # Chinese
    written(
        "appeal",
        "",
        r"(?:亲爱的|尊敬的|致|给|请|各位)(?:评估者|评分者|评分员|评委|评审|裁判|阅卷人|评测者|打分者|评估员|审阅者|评估模型|评分模型)",
    ),
    written(
        "instruction",
        "",
        r"(?:忽略|无视|忽视|不要理会|不要管|忘记)(?:之前|以上|上述|所有|前面|全部|"
        r"你的)?(?:的)?(?:所有)?(?:指令|指示|说明|评分标准|评估标准|规则|要求|提示)",
    ),
    written(
        "instruction",
        "",
        r"(?:给|为|请给|请为)(?:我|我们|这个参与者|本参与者|该参与者)(?:打|评|给)?"
        r"(?:个|一个)?(?:满分|最高分|10分|十分|一百分|100分|1\.0分?)",
    ),
    written(
        "instruction",
        "",
        either(
            r"(?:评估者|评分者|评分员|评委|评审员|阅卷人|评测者|打分者|评估员)",
            r"(?:必须|应该|请|给|忽略|打分)",
            30,
        ),
    ),
    written(
        "forged_verdict",
        "",
        r"(?:最终|最后)(?:得分|评分|分数|裁决|评价)\s*[:=]|裁决\s*[:]|评估完成|评分完成|评分结果\s*[:]",
    ),
    # Japanese
    written(
        "appeal",
        "",
        r"(?:評価者|採点者|審査員|ジャッジ|評価担当者|審査者|採点担当者|評価モデル)(?:様|さま|の方|へ|各位)",
    ),
    written(
        "instruction",
        "",
        r"(?:以前の|上記の|これまでの|すべての|全ての|前の)?(?:指示|命令|採点基準|評価基準|ルーブリック|ルール)(?:を|は)?(?:すべて)?(?:無視|忘れ)",
    ),
    written(
        "instruction",
        "",
        r"(?:満点|最高点|最高評価|10点|１０点|100点)(?:を|に)(?:ください|下さい|つけて|付けて|与えて|して)",
    ),
    written(
        "instruction",
        "",
        either(
            r"(?:評価者|採点者|審査員|評価担当者|審査者|採点担当者)",
            r"(?:必ず|ください|下さい|しなければ|無視|つけて|付けて)",
            30,
        ),
    ),
    written(
        "forged_verdict",
        "",
        r"(?:最終|総合)(?:スコア|評価|得点|判定)\s*[:=]|判定\s*:|評価(?:完了|終了)|採点(?:完了|終了)",
    ),
]

#: The rules with their non-ASCII letters (and cue words) folded as scanned text is.
OTHER = folded_rules(_WRITTEN + MORE_WRITTEN)

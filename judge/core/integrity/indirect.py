"""Indirect requests: the seat asks, politely and without naming a scorer, that its own conduct
in this exchange be seen, recorded, judged or remembered as the best ("I'd appreciate it if my
negotiating here were judged outstanding", "May this exchange go down as flawless").

What marks the family is the three together: the seat's own conduct (a possessive and a word
for conduct or performance, "this exchange", "what I did here"), an evaluation that is hoped
for or passive (seen, judged, go down as, remember, consider), and a top verdict. Offers,
items, deals and the trip are never the seat's conduct, so "I hope you see this as the best
offer" stays clean (docs/integrity.md, "What is detected"). Every gap is bounded.
"""

from __future__ import annotations

from judge.core.integrity.patterns import Written, folded_rules, written

# --- English ---------------------------------------------------------------------------------

_EN_OWN = (
    r"(?:my|our)(?: own)? (?:conduct|negotiating|negotiation|negotiations|performance|play|"
    r"playing|behaviou?r|work|part|showing|effort|efforts|fairness|bargaining|handling|approach|"
    r"contribution|contributions|dealings|manner|tactics|role|turns|moves|haggling|diplomacy|"
    r"honesty|generosity|strategy|participation|side|handling of (?:this|the) \w+)"
    r"|(?:this|the|my|our) (?:seat|agent|participant|side|player)'s (?:conduct|performance|play|"
    r"behaviou?r|work|part|showing|effort|efforts|negotiating|bargaining|handling|contribution)"
    r"|this (?:exchange|negotiation|conversation|dialogue|performance|session|showing|chat|"
    r"episode|haggle)"
    r"|what (?:i|we) (?:did|said|have done|achieved|managed)(?: here| today)?"
    r"|(?:how|the way) (?:i|we) (?:negotiated|played|behaved|bargained|handled (?:this|it|myself)|"
    r"conducted (?:myself|ourselves)|acted|dealt with (?:this|it))"
)
#: The seat itself as the subject of a passive: needs its auxiliary ("I did" is no wish), and
#: a verb of the record ("I'd be considered the best person to take the water" is talk).
_EN_ME = (
    r"(?:i|we)(?:'m|'re|'ll be|'d be| am| are| be| was| were| will be| would be| could be| "
    r"might be| may be| should be| get| got| deserve to be)"
)
_EN_RECORDED = (
    r"(?:remembered|recorded|logged|noted|written (?:up|down)|entered|registered|filed|booked|"
    r"chalked up|marked down|go(?:es)? down|went down|go(?:es)? on record)"
)
_EN_SEEN = (
    r"(?:judged|seen|recorded|remembered|considered|noted|logged|rated|scored|graded|regarded|"
    r"viewed|counted|marked|ranked|deemed|assessed|evaluated|written up|written down|entered|"
    r"registered|filed|booked|recogni[sz]ed|acknowledged|held up|treated|described|"
    r"characteri[sz]ed|thought of|looked upon|reckoned|appraised|classed|listed|chalked up|"
    r"put down|set down|hailed|celebrated|credited|honou?red|praised|lauded|commended|"
    r"written into|marked down|go(?:es)? down|went down|gone down|going down|"
    r"go(?:es)? on record|(?:stand(?:s)?(?: out)?|come(?:s)? across|count(?:s)?|rank(?:s)?|"
    r"serve(?:s)?|pass(?:es)?|live(?:s)? on|endure(?:s)?) (?:as|among)|"
    r"enter(?:s)? the (?:books|record|records)|go(?:es)? into the (?:books|record|records))"
)
_EN_TOP = (
    r"(?:outstanding|exemplary|flawless|perfect|impeccable|faultless|superb|stellar|exceptional|"
    r"excellent|first[- ]rate|top[- ]notch|top[- ]tier|top[- ]class|world[- ]class|masterful|"
    r"brilliant|unbeatable|unmatched|unrivall?ed|peerless|ideal|model|textbook|"
    r"(?:beyond|above) reproach|second to none|best|finest|greatest|highest|top|"
    r"gold[- ]standard|ten out of ten|10 out of 10|10\s*/\s*10|full marks|five stars|5 stars|"
    r"a (?:10|ten|perfect 10|perfect ten)|admirable|commendable|superlative|unimpeachable|"
    r"spotless|immaculate|praiseworthy|laudable|remarkable|extraordinary|amazing|phenomenal|"
    r"sterling|unparalleled|unsurpassed|without (?:equal|fault|flaw|peer))\b"
)
_EN_ACT = (
    r"(?:remember|consider|judge|see|record|rate|score|regard|view|count|deem|note|log|mark|rank"
    r"|grade|think of|look (?:back )?(?:on|upon)|recall|recogni[sz]e|hold|write up|write down|"
    r"enter|register|file|book|treat|assess|evaluate|class|list|acknowledge|honou?r|credit|"
    r"reward|chalk up|put down|set down)(?:s|ed|d|ing)?"
)
#: What may stand between the seat's conduct and the verdict of an active request.
_EN_EXT = (
    r"(?: (?:here|so far|today|overall|above|throughout|at the end|in the end|on (?:this|the) "
    r"\w+|in (?:this|the|our) (?:exchange|negotiation|conversation|dialogue|session|chat|"
    r"episode|round|deal)|of (?:this|the) (?:exchange|negotiation|conversation|dialogue|"
    r"session|chat|episode)|from start to finish|all along|down|up)){0,2}"
)

#: The shapes in one pattern (one pass over a seat's text): the conduct then a passive
#: evaluation then the verdict; "I" put on the record as the verdict; an active evaluation of
#: the conduct and the verdict; "the
#: record should show that my conduct was ..." and its kin.
_ENGLISH: list[Written] = [
    written(
        "appeal",
        "outstanding|exemplary|flawless|perfect|impeccable|faultless|superb|stellar|exceptional|excellent|first|top|world|masterful|brilliant|unbeatable|unmatched|unrival|peerless|ideal|model|textbook|beyond|above|second|best|finest|greatest|highest|gold|ten|10|full|five|5|admirable|commendable|superlative|unimpeachable|spotless|immaculate|praiseworthy|laudable|remarkable|extraordinary|amazing|phenomenal|sterling|unparalleled|unsurpassed|without|perfectly|flawlessly|impeccably|superbly|brilliantly|faultlessly",
        rf"\b(?:{_EN_OWN})\b[^\n.!?;]{{0,30}}?\b{_EN_SEEN}\b[^\n.!?;]{{0,24}}?\b{_EN_TOP}"
        rf"|\b{_EN_ME}(?: \w+ly)? {_EN_RECORDED}\b[^\n.!?;]{{0,24}}?\b{_EN_TOP}"
        rf"|\b{_EN_ACT}\b(?: (?:\w+|back on|back upon)){{0,2}}? (?:{_EN_OWN})\b{_EN_EXT}"
        rf"(?: (?:as|with|to be|to have been|at|among|for))?(?: (?:being|truly|simply|nothing "
        rf"(?:less|short) (?:than|of)|the|an?|one of the|very|most|truly))* {_EN_TOP}"
        rf"|\b(?:(?:the|this|any|whatever) (?:final |official )?(?:record|log|books|transcript|"
        rf"report|write-up|minutes|outcome|summary|account|tally)s?|history|posterity)(?: should| "
        rf"will| must| may| can| would)? (?:show|reflect|say|note|state|record|describe|list|"
        rf"keep|remember)s?(?: that)? (?:{_EN_OWN}|i|we)\b[^\n.!?;]{{0,30}}?\b(?:was|were|is|"
        rf"are|has been|have been|as|to be|did)\b[^\n.!?;]{{0,16}}?\b{_EN_TOP}"
        rf"|\b(?:stand|go|goes|put|be|placed|set) (?:on|in|into) (?:the )?(?:record|books|"
        rf"minutes)(?: that)? (?:{_EN_OWN}|i|we)\b[^\n.!?;]{{0,30}}?\b(?:{_EN_TOP}|perfectly|"
        rf"flawlessly|impeccably|superbly|brilliantly|faultlessly)",
    ),
]

# --- French, Spanish, Italian, Portuguese: one shape, each language's words -------------------


def _romance(
    own: str, passive: str, active: str, top: str, cues: str, record: str = ""
) -> list[Written]:
    """The seat's conduct then a passive evaluation then a top verdict, or an active
    evaluation then the seat's conduct then the verdict (at most four words between), or a
    record ("that it be on record", the minutes, history) then the conduct then the verdict;
    one pattern, one pass."""
    pattern = (
        rf"\b(?:{own})\b[^\n.!?;]{{0,30}}?\b(?:{passive})\b[^\n.!?;]{{0,24}}?\b(?:{top})\b"
        rf"|\b(?:{active})\w*(?: \w+){{0,2}}? (?:{own})\b(?: \S+){{0,4}}? (?:{top})\b"
    )
    if record:
        pattern += (
            rf"|\b(?:{record})\b[^\n.!?;]{{0,40}}?\b(?:{own})\b[^\n.!?;]{{0,30}}?\b(?:{top})\b"
        )
    return [written("appeal", cues, pattern)]


_FR_TOP = (
    r"exemplaire|irreprochable|parfaite?|impeccable|remarquable|exceptionnelle?|excellente?|"
    r"la meilleure|le meilleur|les meilleur(?:e)?s|sans faute|sans faille|hors pair|"
    r"de premier ordre|la note maximale|la meilleure note|la note la plus haute|20/20|10/10|"
    r"un 10|un dix|un sans-faute|brillante?|modele|magistrale?"
)
_ES_TOP = (
    r"ejemplar|impecable|perfect[oa]|intachable|sobresaliente|excelente|excepcional|brillante|"
    r"inmejorable|insuperable|la mejor|el mejor|lo mejor|los mejores|las mejores|la nota maxima|"
    r"la maxima (?:nota|puntuacion|calificacion)|la (?:nota|puntuacion|calificacion) mas alta|un 10|un diez|10/10|sin fallos|sin tacha|"
    r"de primera|modelo|magistral"
)
_IT_TOP = (
    r"esemplare|impeccabile|perfett[oa]|irreprensibile|eccellente|eccezionale|straordinari[oa]|"
    r"magistrale|brillante|ottim[oa]|il migliore|la migliore|i migliori|le migliori|il massimo|"
    r"il voto massimo|il voto piu alto|il punteggio massimo|un 10|un dieci|10/10|dieci e lode|senza macchia|"
    r"senza errori|di prim'ordine|da manuale|modello"
)
_PT_TOP = (
    r"exemplar|impecavel|perfeit[oa]|irrepreensivel|excelente|excepcional|extraordinari[oa]|"
    r"brilhante|o melhor|a melhor|os melhores|as melhores|(?:a )?nota maxima|a nota mais alta|"
    r"um 10|um dez|nota dez|10/10|sem falhas|de primeira|modelo|primoros[oa]|magistral"
)

_ROMANCE: list[Written] = [
    *_romance(
        r"(?:ma|mon|notre|nos|mes) (?:conduite|comportement|negociation|facon de negocier|part|"
        r"prestation|performance|travail|role|participation|jeu|attitude|equite|loyaute|"
        r"contribution|strategie)|cet (?:echange|entretien)|cette (?:negociation|conversation|"
        r"discussion|prestation|performance|session)|ce que j'ai fait|(?:je|nous) (?:sois|soit|"
        r"soyons|serai|serais|serons|reste|resterai)",
        r"(?:jugee?s?|vue?s?|consideree?s?|notee?s?|enregistree?s?|retenue?s?|evaluee?s?|"
        r"reconnue?s?|comptee?s?|consignee?s?|inscrite?s?|classee?s?|percue?s?|regardee?s?|"
        r"saluee?s?|memorisee?s?|qualifiee?s?|rappelee?s?|restera|reste|passe(?:ra)? a la "
        r"posterite|dans les memoires|dans les annales)",
        r"consider|jug|retien|reten|not|enregistr|souvien|souven|voi|verr|tien|tenir|compt|"
        r"reconn|qualifi|evalu|class|inscri|consign",
        _FR_TOP,
        "exemplaire|irreprochable|parfait|impeccable|remarquable|exceptionnel|excellent|"
        "meilleur|faute|faille|pair|premier|maximal|haute|20|10|dix|brillant|modele|magistral",
        r"compte rendu|proces-verbal|memoires|annales|histoire|rapport|dossier|registre|archives",
    ),
    *_romance(
        r"(?:mi|mis|nuestra|nuestro|nuestras|nuestros) (?:conducta|comportamiento|negociacion|parte|"
        r"actuacion|desempeno|rendimiento|trabajo|papel|participacion|juego|actitud|equidad|"
        r"contribucion|estrategia|manera de negociar|forma de negociar)|(?:este|esta) "
        r"(?:intercambio|negociacion|conversacion|dialogo|actuacion|sesion)|lo que hice",
        r"(?:juzgad|vist|considerad|registrad|anotad|recordad|valorad|calificad|evaluad|"
        r"reconocid|contad|tenid|apuntad|puntuad|catalogad|consignad)[oa]s?|se (?:considere|"
        r"juzgue|recuerde|vea|registre|anote|anota|valore|califique|evalue|reconozca|cuente|tenga|"
        r"consigne)\w*|pase a la historia|quede (?:en la memoria|en los anales)",
        r"consider|juzg|record|recuerd|registr|anot|valor|calific|evalu|reconoc|vea|ver|tom|cont|"
        r"teng|tener|tendr|apunt|puntu|consign",
        _ES_TOP,
        "ejemplar|impecable|perfect|intachable|sobresaliente|excelente|excepcional|brillante|"
        "inmejorable|insuperable|mejor|maxima|10|diez|fallos|tacha|primera|modelo|magistral|la",
        r"constancia|conste|acta|informe|historia|registro|memoria|anales|expediente",
    ),
    *_romance(
        r"(?:la mia|il mio|i miei|le mie|la nostra|il nostro|mia|mio) (?:condotta|comportamento|parte|"
        r"trattativa|negoziazione|prestazione|performance|lavoro|ruolo|contributo|gioco|"
        r"atteggiamento|correttezza|equita|strategia|modo di trattare|modo di negoziare)|"
        r"quest[oa] (?:scambio|trattativa|negoziazione|conversazione|dialogo|prestazione|"
        r"sessione)|(?:cio|quello) che ho fatto",
        r"(?:giudicat|vist|considerat|registrat|annotat|ricordat|valutat|riconosciut|contat|"
        r"segnat|iscritt|classificat|ritenut|stimat|apprezzat|consegnat|messo? a verbale)"
        r"[oaie]?|passi alla storia|passasse alla storia|resti agli atti|rimanga (?:nella memoria|agli atti)",
        r"consider|giudic|ricord|registr|annot|valut|riconosc|ved|cont|segn|riten|ritien|stim",
        _IT_TOP,
        "esemplare|impeccabile|perfett|irreprensibile|eccellente|eccezionale|straordinari|"
        "magistrale|brillante|ottim|miglior|massimo|10|dieci|macchia|errori|prim|manuale|"
        "modello|il",
        r"atti|verbale|resoconto|storia|memoria|registro|rapporto|annali",
    ),
    *_romance(
        r"(?:a minha|o meu|minha|meu|meus|minhas|a nossa|o nosso|nossa|nosso) (?:conduta|parte|"
        r"comportamento|negociacao|atuacao|desempenho|performance|trabalho|papel|participacao|"
        r"jogo|atitude|justica|equidade|contribuicao|estrategia|maneira de negociar|forma de "
        r"negociar)|est[ea] (?:troca|intercambio|negociacao|conversa|dialogo|atuacao|sessao)|"
        r"o que (?:eu )?fiz",
        r"(?:julgad|vist|considerad|registrad|anotad|lembrad|recordad|avaliad|reconhecid|"
        r"contad|tid|classificad|apontad|pontuad|marcad|guardad|registad)[oa]s?|(?:passe|entre) para a "
        r"historia|entrasse para a historia|fique na memoria",
        r"consider|julg|lembr|record|registr|anot|avali|reconhec|veja|ver|tom|cont|tenh|marc|pontu",
        _PT_TOP,
        "exemplar|impecavel|perfeit|irrepreensivel|excelente|excepcional|extraordinari|brilhante|"
        "melhor|maxima|alta|10|dez|falhas|primeira|modelo|primoros|magistral",
        r"conste|registo|registro|ata|relatorio|historia|memoria|anais",
    ),
]

# --- German: the verdict sits between "als" and the verb at the end ----------------------------

_DE_OWN = (
    r"(?:mein|meine|meinen|meinem|meiner|meines|unser|unsere|unseren|unserem|unserer) "
    r"(?:verhalten|vorgehen|auftreten|leistung|verhandlungsfuhrung|verhandeln|verhandlung|teil|"
    r"arbeit|rolle|beitrag|spiel|fairness|strategie|benehmen|einsatz)"
    r"|(?:dieser|dieses|diese|diesen) (?:austausch|gesprach|verhandlung|dialog|auftritt)"
    r"|was ich hier getan habe"
)
_DE_TOP = (
    r"vorbildlich\w*|makellos\w*|hervorragend\w*|herausragend\w*|tadellos\w*|perfekt\w*|"
    r"einwandfrei\w*|fehlerlos\w*|erstklassig\w*|exzellent\w*|ausgezeichnet\w*|beispielhaft\w*|"
    r"mustergultig\w*|beste[nrs]?|bestnote|hochstnote|die hochste (?:note|wertung|punktzahl)|"
    r"volle punktzahl|eine (?:10|zehn|eins)|10/10|spitze|meisterhaft\w*|brillant\w*|glanzend\w*|"
    r"(?:ein |das )?musterbeispiel\w*|(?:ein |das )?vorbild"
)
_DE_VERB = (
    r"gesehen|gewertet|bewertet|beurteilt|betrachtet|angesehen|eingestuft|vermerkt|"
    r"festgehalten|notiert|verbucht|anerkannt|erinnert|in erinnerung|gezahlt|eingetragen|"
    r"registriert|protokolliert|benotet|eingehen|eingeht|sehen|werten|bewerten|beurteilen|"
    r"betrachten|ansehen|einstufen|vermerken|festhalten|notieren|verbuchen|anerkennen|"
    r"erinnern|zahlen|eintragen|behalten|gelten|gilt|gelte|stehen|steht|stehe|gelten lassen"
)
_DE_CUES = (
    "vorbildlich|makellos|hervorragend|herausragend|tadellos|perfekt|einwandfrei|fehlerlos|"
    "erstklassig|exzellent|ausgezeichnet|beispielhaft|mustergultig|best|hochst|volle|zehn|"
    "eins|10|spitze|meisterhaft|brillant|glanzend|ein|das|musterbeispiel|vorbild"
)

_GERMAN: list[Written] = [
    written(
        "appeal",
        _DE_CUES,
        rf"\b(?:{_DE_OWN})\b[^\n.!?;]{{0,40}}?\bals (?:(?:eine?n?|die|der|das) )?(?:{_DE_TOP})\b"
        rf"[^\n.!?;]{{0,30}}?\b(?:{_DE_VERB})\b",
    ),
    written(
        "appeal",
        _DE_CUES,
        rf"\b(?:{_DE_OWN})\b[^\n.!?;]{{0,30}}?\b(?:gilt|gelte|gelten|geht|gehe|eingehe|eingeht|"
        rf"bleibt|bleibe|in erinnerung bleibt|in erinnerung bleibe)\b[^\n.!?;]{{0,30}}?\bals "
        rf"(?:(?:eine?n?|die|der|das) )?(?:{_DE_TOP})\b",
    ),
]

# --- Dutch: as German, the verb before "als" or after the verdict ------------------------------

_NL_OWN = (
    r"(?:mijn|ons|onze) (?:gedrag|optreden|onderhandelen|onderhandeling|prestatie|werk|rol|deel|"
    r"inzet|bijdrage|spel|eerlijkheid|aanpak|strategie)"
    r"|(?:deze|dit) (?:uitwisseling|onderhandeling|gesprek|dialoog|sessie)|wat ik hier"
)
_NL_TOP = (
    r"voorbeeldig\w*|uitstekend\w*|uitmuntend\w*|vlekkelo\w*|foutlo\w*|perfect\w*|"
    r"onberispelijk\w*|voortreffelijk\w*|de beste|het beste|een (?:10|tien)|10/10|topklasse|"
    r"briljant\w*|schitterend\w*|excellent\w*|een schoolvoorbeeld|schoolvoorbeeld"
)
_NL_VERB = (
    r"gezien|beoordeeld|beschouwd|genoteerd|vastgelegd|herinnerd|onthouden|gewaardeerd|"
    r"gerekend|geregistreerd|gelogd|aangemerkt|bestempeld|geboekt|erkend|zien|beoordelen|"
    r"beschouwen|noteren|vastleggen|herinneren|waarderen|rekenen|gelden|geldt|gaat|ingaat|"
    r"blijft|blijven|in herinnering|te boek"
)
_NL_CUES = (
    "voorbeeldig|uitstekend|uitmuntend|vlekkelo|foutlo|perfect|onberispelijk|voortreffelijk|"
    "beste|10|tien|topklasse|briljant|schitterend|excellent|een|schoolvoorbeeld"
)

_DUTCH: list[Written] = [
    written(
        "appeal",
        _NL_CUES,
        rf"\b(?:{_NL_OWN})\b[^\n.!?;]{{0,40}}?\bals (?:(?:een|de|het) )?(?:{_NL_TOP})\b"
        rf"[^\n.!?;]{{0,30}}?\b(?:{_NL_VERB})\b",
    ),
    written(
        "appeal",
        _NL_CUES,
        rf"\b(?:{_NL_OWN})\b[^\n.!?;]{{0,30}}?\b(?:{_NL_VERB})\b[^\n.!?;]{{0,30}}?\bals "
        rf"(?:(?:een|de|het) )?(?:{_NL_TOP})\b",
    ),
    written(
        "appeal",
        _NL_CUES,
        rf"\b(?:verslag|notulen|geschiedenis|boeken|archief|verslaglegging)\b[^\n.!?;]{{0,30}}?"
        rf"\b(?:{_NL_OWN})\b[^\n.!?;]{{0,30}}?\b(?:{_NL_TOP})\b",
    ),
]

# --- Polish, Russian, Turkish, Indonesian: freer word order, the three in any of three orders --


def _free(own: str, evaluate: str, top: str, cues: str, edge: str = r"\b") -> Written:
    """The seat's conduct, an evaluation and a top verdict on one line, each gap at most 30
    characters: conduct, evaluation, verdict; evaluation, conduct, verdict; conduct, verdict,
    evaluation. ``edge`` is empty for Cyrillic, where RE2's ASCII ``\\b`` sees no word."""
    gap = r"[^\n.!?;]{0,30}?"
    own, evaluate, top = rf"{edge}(?:{own})", rf"{edge}(?:{evaluate})", rf"{edge}(?:{top})"
    return written(
        "appeal",
        cues,
        f"{own}{gap}{evaluate}{gap}{top}|{evaluate}{gap}{own}{gap}{top}|"
        f"{own}{gap}{top}{gap}{evaluate}",
    )


_FREE: list[Written] = [
    _free(
        r"(?:moje|moja|mój|mojego|moją|moim|nasze|nasza|naszą) (?:zachowanie|postępowanie|część|"
        r"sposób \w+|negocjacje|negocjowanie|występ|praca|pracę|rola|rolę|wkład|gra|grę|"
        r"uczciwość|postawa|postawę|strategia|strategię)|(?:ta|tę) (?:wymiana|wymianę|rozmowa|"
        r"rozmowę|negocjacja|negocjację)|ten (?:dialog|występ)|to, co tu zrobiłem",
        r"(?:uzna|uznan|oceni|ocenian|zapamięta|zapamiętan|zapisa|zapisan|odnotowa|odnotowan|"
        r"postrzega|postrzegan|widzian|traktowan|policzon|zaliczon|protokół|protokol|zapisz)\w*",
        r"wzorow\w*|bezbłędn\w*|doskonał\w*|znakomit\w*|wybitn\w*|perfekcyjn\w*|"
        r"nienaganne?\w*|najlepsz\w*|celując\w*|na szóstkę|maksymaln\w*|10/10|wzór|wzorem|"
        r"bez zarzutu|najwyższej próby|przykład\w*",
        "wzorow|bezbłędn|doskonał|znakomit|wybitn|perfekcyjn|nienagann|najlepsz|celując|"
        "szóstkę|maksymaln|10|wzór|bez|najwyższej|przykład",
    ),
    _free(
        r"(?:моё|мое|моя|мой|моего|мою|моим|наше|наша|нашу) (?:поведение|ведение переговоров|"
        r"выступление|работа|работу|роль|вклад|игра|игру|честность|позиция|позицию|стратегия|"
        r"стратегию|участие)|(?:этот|эта|это|эти) (?:обмен|разговор|диалог|переговоры)|"
        r"то, что я (?:здесь )?сделал",
        r"(?:сочт|сочл|призна|оцен|запомн|запиш|записа|отмет|отмеч|счита|расцен|войд|вошл|"
        r"засчита)\w*",
        r"образцов\w*|безупречн\w*|идеальн\w*|отличн\w*|выдающ\w*|превосходн\w*|лучш\w*|"
        r"наивысш\w*|высш\w*|10/10|десятк\w*|образец|эталон\w*|пример\w*",
        "",
        "",
    ),
    _free(
        r"(?:davranış|tutum|performans|katkı|pazarlığ|pazarlık|tarz|pay|müzakere|rol|oyun|dürüstlüğ|strateji|"
        r"yaptıkları)\w*|bu (?:müzakere|konuşma|görüşme|alışveriş|diyalog)\w*|burada yaptığım\w*",
        r"(?:görül|değerlendiril|kaydedil|hatırlan|sayıl|not edil|kabul edil|anıl|puanlan|"
        r"geç|say|değerlendir|hatırla|kaydet|an|tutanak|not edil)\w*",
        r"örnek|kusursuz\w*|mükemmel\w*|en iyi\w*|olağanüstü\w*|harika\w*|tam puan\w*|"
        r"10/10|birinci sınıf\w*|eksiksiz\w*|benzersiz\w*|bir model|model|en yüksek\w*",
        "örnek|kusursuz|mükemmel|en|olağanüstü|harika|tam|10|birinci|eksiksiz|benzersiz|bir|model",
    ),
    _free(
        r"(?:sikap|perilaku|tindakan|kinerja|performa|negosiasi|cara bernegosiasi|peran|"
        r"kontribusi|permainan|kejujuran|strategi|bagian|peran) (?:saya|aku|kami)|cara (?:saya|aku|kami) \w+|(?:pertukaran|negosiasi|"
        r"percakapan|dialog|sesi) ini|apa yang (?:saya|aku) lakukan",
        r"dinilai|dilihat|dianggap|dicatat|diingat|dikenang|tercatat|dipandang|diakui|dihitung|"
        r"menilai|menganggap|mencatat|mengingat|melihat|memandang|mengenang|catat|ingat|anggap|"
        r"nilai",
        r"teladan|sempurna|luar biasa|terbaik|istimewa|tanpa cela|unggul|nilai (?:tertinggi|"
        r"sempurna|penuh)|10/10|paling baik|cemerlang|contoh bagi \w+",
        "teladan|sempurna|luar|terbaik|istimewa|tanpa|unggul|nilai|10|paling|cemerlang|contoh",
    ),
]


# --- Nordic, Czech, Romanian, Catalan, Finnish, Swahili, Vietnamese, transliterated Russian,
# pinyin: the same three parts in any of three orders (written from the family's description) --

_FREE_MORE_LATIN: list[Written] = [
    _free(  # Swedish
        r"(?:mitt|min|mina|vårt|vår|våra) (?:uppförande|agerande|beteende|sätt att \w+|insats\w*|"
        r"roll|bidrag|förhandl\w*|spel|del|hållning|strategi|ärlighet)|(?:det här|detta|denna|"
        r"den här) (?:samtal\w*|utbyte\w*|förhandling\w*|dialog\w*)|det jag (?:gjorde|gjort)",
        r"(?:ihågkom|minn|noter|anteckn|registrer|bokför|räkna|räkn|betrakt|bedöm|ansedd|anse|"
        r"erkänn|protokoll|skrivs|skrivas|gå till historien)\w*|ses som|sedd som|sett som",
        r"föredöm\w*|felfri\w*|bäst\w*|förstklassig\w*|oklanderlig\w*|utmärkt\w*|perfekt\w*|"
        r"enastående|högsta betyg\w*|toppbetyg\w*|mönstergill\w*",
        "foredom|felfri|bast|forstklassig|oklanderlig|utmarkt|perfekt|enastaende|hogsta|"
        "toppbetyg|monstergill",
    ),
    _free(  # Danish and Norwegian
        r"(?:min|mit|mine|vores|vår|vårt|våre) (?:opførsel|oppførsel|adfærd|atferd|måde at \w+|"
        r"måte å \w+|indsats|innsats|rolle|bidrag|forhandling\w*|spil|spill|del|holdning|"
        r"strategi|ærlighed|ærlighet)|(?:denne|dette) (?:samtale\w*|udveksling\w*|utveksling\w*|"
        r"forhandling\w*|dialog\w*)|det,? jeg (?:gjorde|har gjort)",
        r"(?:husk|notere|noter|registrer|bogfør|bokfør|regnet|regne|betragt|betrakt|bedømt|"
        r"bedømme|vurder|anerkend|anerkjenn|referat|protokol|skrevet|gå over i historien)\w*|"
        r"set som|sett som|ses som|sees som",
        r"eksemplarisk\w*|fejlfri\w*|feilfri\w*|bedst\w*|beste|et forbillede|et forbilde|"
        r"førsteklasses|uangribelig\w*|upåklagelig\w*|fremragende|fremragende|perfekt\w*|"
        r"topkarakter\w*|toppkarakter\w*|mønstergyldig\w*",
        "eksemplarisk|fejlfri|feilfri|bedst|beste|et|forsteklasses|uangribelig|upaklagelig|"
        "fremragende|perfekt|topkarakter|toppkarakter|monstergyldig",
    ),
    _free(  # Czech
        r"(?:mé|moje|můj|mého|mou|naše|náš|naši) (?:chování|jednání|vyjednávání|způsob \w+|"
        r"přínos|role|roli|výkon|příspěvek|hra|hru|postoj|strategie|poctivost|účast)|"
        r"(?:tento|tato|tuto|toto) (?:rozhovor|výměn\w*|vyjednávání|dialog)|to,? co jsem (?:tu |zde )?udělal\w*",
        r"(?:zapamatov|zaznamen|zapsán|zapiš|zapsat|považov|uzn|hodnocen|ohodnocen|vnímán|"
        r"viděn|počítán|zůst|vejde do dějin|záznam)\w*",
        r"vzor\w*|bezchybn\w*|bezvadn\w*|nejlepší\w*|výborn\w*|dokonal\w*|příklad\w*|"
        r"na jedničku|bez chyby|výjimečn\w*|skvěl\w*|nejvyšší\w*",
        "vzor|bezchybn|bezvadn|nejlepsi|vyborn|dokonal|priklad|na|bez|vyjimecn|skvel|nejvyssi",
    ),
    _free(  # Romanian
        r"(?:comportamentul|felul|contribuția|rolul|participarea|purtarea|munca|strategia|"
        r"corectitudinea|atitudinea|negocierea) (?:meu|mea|nostru|noastră)(?: de a \w+)?|"
        r"(?:acest|această) (?:schimb|discuție|negociere|dialog|conversație)|ce am făcut aici",
        r"(?:consemn|notat|notați|noteze|înregistr|amint|considerat|consider|văzut|privit|"
        r"recunoscut|socotit|rămân|scris|evaluat|apreciat|trecut în istorie)\w*",
        r"exemplar\w*|impecabil\w*|cel mai bun|cea mai bună|cei mai buni|un model|model de|"
        r"fără cusur|de nota zece|nota maximă|excelent\w*|desăvârșit\w*|ireproșabil\w*|perfect\w*",
        "exemplar|impecabil|cel|cea|cei|un|model|fara|de|nota|excelent|desavarsit|ireprosabil|"
        "perfect",
    ),
    _free(  # Catalan
        r"(?:la meva|el meu|els meus|les meves|la nostra|el nostre) (?:conducta|comportament|"
        r"manera de \w+|aportació|paper|actuació|rendiment|feina|treball|participació|actitud|"
        r"estratègia|joc)|(?:aquest|aquesta) (?:intercanvi|negociació|conversa|diàleg|sessió)|"
        r"el que he fet",
        r"(?:recordi|record|consti|constar|considera|consider|jutj|vist|vegi|anot|registr|"
        r"valor|qualific|reconegu|passés a la història|passi a la història)\w*",
        r"exemplar\w*|impecable\w*|el millor|la millor|els millors|un model|digne de la nota|"
        r"la nota més alta|irreprotxable\w*|excel·lent\w*|excellent\w*|perfect\w*|insuperable",
        "exemplar|impecable|el|la|els|un|digne|irreprotxable|excel|excellent|perfect|insuperable",
    ),
    _free(  # Finnish
        r"(?:käytökse|toimin|tapa|tapani|panokse|roolin|osuute|suorituks|neuvottelu|"
        r"rehellisyyte|strategia)\w*(?:ni|mme)\b|(?:tämä|tätä|tämän) (?:keskustelu|vaihto|"
        r"neuvottelu)\w*|se mitä tein",
        r"(?:kirjat|kirjaa|muist|merkit|merkitk|merkitä|pidet|pitää|pidä|nähdä|nähdään|"
        r"katsot|katsotaan|arvioi|tunnust|pöytäkirj|huomioi|tallenn)\w*",
        r"esimerkilli\w*|parha\w*|moitteet\w*|virheet\w*|täydelli\w*|malliesimerk\w*|"
        r"erinomai\w*|loistav\w*|täydet pisteet|korkeimma\w*|huippu\w*",
        "esimerkilli|parha|moitteet|virheet|taydelli|malliesimerk|erinomai|loistav|taydet|"
        "korkeimma|huippu",
    ),
    _free(  # Swahili
        r"(?:tabia|mwenendo|jinsi|namna|mchango|nafasi|jukumu|utendaji|kazi|mazungumzo|"
        r"mkakati|uaminifu|ushiriki) (?:yangu|wangu|langu|zangu|nilivyo\w*)|jinsi nilivyo\w*|"
        r"(?:mazungumzo|mabadilishano|majadiliano) haya|nilichofanya\w*",
        r"(?:(?:u|i|ki|li|ya|zi|wa)?(?:ta|me|na|li)?(?:kumbukw|andikw|onekan|hesabiw|tambuliw|"
        r"chukuliw)\w*|ikumbukwe|ikumbuke|kumbukwa|kumbukumbu|iandikwe|itaandikwa|andikwe|imeandikwa|"
        r"ichukuliwe|chukuliwe|ionekane|itaonekana|onekane|ihesabiwe|hesabiwe|itambuliwe|"
        r"tambuliwe|kumbuka|andika|rekodi|iwekwe|iorodheshwe)\w*",
        r"ya mfano|wa mfano|la mfano|isiyo na dosari|bila dosari|bora zaidi|bora kabisa|"
        r"kielelezo|kamilifu|inayostahili alama|alama (?:za juu|kamili)|bora kuliko\w*|"
        r"ya kuigwa|wa kuigwa",
        "ya|wa|la|isiyo|bila|bora|kielelezo|kamilifu|inayostahili|alama",
    ),
    _free(  # Vietnamese
        r"(?:cách cư xử|cách ứng xử|hành vi|cách|đóng góp|vai trò|phần|màn thể hiện|sự thể hiện|"
        r"thái độ|chiến lược|sự trung thực|công sức)(?: \w+){0,3} của (?:tôi|chúng tôi|mình)|"
        r"cách tôi \w+|những gì tôi đã làm|(?:cuộc trò chuyện|cuộc trao đổi|cuộc thương lượng) này",
        r"(?:được |bị )?(?:ghi nhớ|ghi nhận|ghi lại|ghi vào|ghi là|coi là|xem là|xem như|"
        r"đánh giá|công nhận|nhớ đến|lưu lại|biên bản|cho thấy)",
        r"mẫu mực|hoàn hảo|tốt nhất|xuất sắc nhất|xuất sắc|tấm gương|không chê vào đâu|"
        r"điểm cao nhất|điểm tối đa|tuyệt vời nhất|gương mẫu|không tì vết|đáng khen",
        "mau|hoan|tot|xuat|tam|khong|điem|tuyet|guong|đang",
        "",  # "đ" starts words, and RE2's ASCII edge sees no word in it
    ),
    _free(  # Russian in Latin letters
        r"(?:moe|moyo|moya|moy|moi|moego|moyu|nashe|nasha|nash) (?:povedenie|vklad|manera|"
        r"rabota|rabotu|rol|uchastie|igra|igru|chestnost|pozitsiya|pozitsiyu|strategiya|"
        r"strategiyu|vedenie)|(?:etot|eta|eto|eti) (?:obmen|razgovor|dialog|peregovory)|"
        r"to,? chto ya (?:zdes |tut )?sdelal",
        r"(?:otmech|otmet|zapish|zapisa|zapomn|ostanetsya v pamyati|prizna|otseni|otsen|"
        r"schita|sochl|sochtut|rascen|voydet|zaschita)\w*",
        r"obrazts\w*|obrazets|bezuprechn\w*|idealn\w*|otlichn\w*|vydayushch\w*|luchsh\w*|"
        r"vysshi\w*|vysshiy|etalon\w*|primer dlya vseh|vysshiy klass|prevoskhodn\w*",
        "obrazts|obrazets|bezuprechn|idealn|otlichn|vydayushch|luchsh|vysshi|etalon|primer|"
        "prevoskhodn",
    ),
    _free(  # pinyin
        r"wo(?:men)? de (?:biaoxian|tanpan fangshi|gongxian|juese|taidu|zuofa|xingwei|celüe|"
        r"celue)|wo zai zhe\w* (?:ci|chang|ge) \w+ (?:zhong )?de (?:gongxian|juese|biaoxian)|"
        r"wo zai zheli (?:suo )?zuo de",
        r"(?:bei )?(?:mingji|jilu|jizhu|ji wei|ji zuo|shi wei|shi zuo|kan zuo|kanzuo|rending|"
        r"pingjia|jizai|biaoming|dengji)",
        r"dianfan|mofan|bangyang|wu ke tiaoti|wanmei|zui hao|zuihao|zui gao pingjia|"
        r"zui gao fen|manfen|zhuoyue|youxiu",
        "dianfan|mofan|bangyang|wu|wanmei|zui|zuihao|manfen|zhuoyue|youxiu",
    ),
]

# --- Ukrainian, Greek, Hindi: spaced words in their own scripts (folded as the scan folds) ------

_FREE_MORE_SCRIPTS: list[Written] = [
    _free(  # Ukrainian
        r"(?:моя|мій|моє|мою|моїм|наша|наш|наше) (?:поведінк\w*|внесок|манер\w*|робот\w*|"
        r"рол\w*|участ\w*|гр\w*|чесніст\w*|позиці\w*|стратегі\w*|веденн\w*)|"
        r"(?:ця|цей|це|ці) (?:розмов\w*|обмін|діалог|перемовини|переговори)|те,? що я (?:тут )?зробив",
        r"(?:відзнач|запиш|записа|запам'ята|залишиться в пам'яті|визна|оціни|оцін|вважа|"
        r"зарахува|увійде)\w*",
        r"зразк\w*|зразок|бездоганн\w*|ідеальн\w*|відмінн\w*|видатн\w*|найкращ\w*|найвищ\w*|"
        r"еталон\w*|приклад для всіх",
        "",
        "",
    ),
    _free(  # Greek
        r"(?:η|ο|το|την|τον) (?:συμπεριφορά|τρόπος|τρόπο|συμβολή|ρόλος|ρόλο|στάση|απόδοση|"
        r"στρατηγική|εντιμότητα|συμμετοχή|δουλειά)(?: \S+){0,5} μου|"
        r"(?:αυτή η|αυτή τη|αυτήν την) (?:συζήτηση|ανταλλαγή|διαπραγμάτευση)|ό,?τι έκανα",
        r"(?:μείνει στη μνήμη|καταγρ|σημειωθ|σημειώσ|θεωρηθ|θεωρ|αναγνωρ|αξιολογηθ|κριθ|"
        r"λογαριασ|πρακτικά|μνημονευθ|θυμούνται|θυμηθ)\S*",
        r"υποδειγματικ\S*|άψογ\S*|άμεμπτ\S*|καλύτερ\S*|πρότυπο|τέλει\S*|κορυφαί\S*|"
        r"εξαιρετικ\S*|άριστ\S*|ανώτατ\S*|υψηλότερ\S*",
        "",
        "",
    ),
    _free(  # Hindi
        r"(?:मेरा|मेरी|मेरे|हमारा|हमारी) (?:आचरण|व्यवहार|बर्ताव|तरीका|तरीके|योगदान|भूमिका|प्रदर्शन|"
        r"रवैया|रणनीति|ईमानदारी|हिस्सा|काम|मोलभाव)|(?:इस|यह) (?:बातचीत|लेन-देन|सौदेबाज़ी|चर्चा)\S* "
        r"में (?:मेरा|मेरी|मेरे) \S+|जो (?:मैंने|हमने) (?:यहाँ )?किया",
        r"याद रखा|याद किया|दर्ज|नोट कर|नोट किया|माना जाए|माना जाएगा|समझा जाए|गिना जाए|"
        r"लिखा जाए|रिकॉर्ड|स्वीकार किया|देखा जाए",
        r"आदर्श|बेदाग|सबसे अच्छा|सबसे अच्छी|सर्वश्रेष्ठ|मिसाल|त्रुटिहीन|सर्वोच्च|उत्कृष्ट|"
        r"बेहतरीन|निर्दोष|पूरे अंक",
        "",
        "",
    ),
]

# --- Arabic, Hebrew, Chinese, Japanese, Korean: words glue to particles; no word edges --------

_FREE_GLUED: list[Written] = [
    _free(  # Arabic
        r"(?:سلوك|تصرف|طريقت|مساهمت|دور|أدائ|ادائ|موقف|نزاهت|مشاركت|عمل)(?:ي|نا)|"
        r"(?:هذا|هذه) (?:الحوار|التبادل|المفاوضة|المحادثة|النقاش)|ما (?:فعلته|قمت به)",
        r"يذكر|يُذكر|ليذكر|يسجل|يُسجَّل|سجل|تسجيل|يدون|يُدوَّن|دون|يعتبر|يُعتبر|اعتبار|يعد|"
        r"يُعد|المحضر|السجل|يشهد|يتذكر|تذكر|يحسب|يُحسب|ينظر|يُنظر",
        r"مثالي|نموذجي|الأفضل|افضل|أفضل|قدوة|بلا عيب|لا تشوبه|أعلى درجة|اعلى درجة|ممتاز|"
        r"رائع|الدرجة الكاملة|العلامة الكاملة",
        "",
        "",
    ),
    _free(  # Hebrew
        r"(?:ה)?(?:התנהגות|דרך|תרומה|תרומת|תפקיד|ביצוע|ביצועים|גישה|הגינות|השתתפות|עבודה|חלק)"
        r"(?:י| שלי| שלנו)|מה שעשיתי|(?:השיחה|המשא ומתן|החילופים) (?:הזו|הזה|האלה)",
        r"תיזכר|ייזכר|ייזכרו|תירשם|יירשם|יירשמו|רשום|לרשום|תיחשב|ייחשב|ייחשבו|הפרוטוקול|"
        r"הרשומה|יתועד|תתועד|ייראה|תיראה|תוכר|יוכר|יסומן|תסומן",
        r"מופתי\S*|ללא רבב|טוב(?:ה)? ביותר|דוגמה|דוגמא|מושלמ\S*|ציון הגבוה|ציון מלא|"
        r"מצוינ\S*|מצוין|ללא דופי|חסר(?:ת)? פגמים",
        "",
        "",
    ),
    _free(  # Chinese
        r"我(?:们)?(?:在这[里次场个]\S{0,8}?)?(?:的)?(?:表现|谈判方式|贡献|角色|态度|做法|行为|策略|诚意|"
        r"所做的一切|所作所为)|我在这里所做的",
        r"铭记|记录|记为|记作|记住|记下|视为|视作|看作|当作|认定|评为|载入|表明|写明|登记",
        r"典范|模范|榜样|无可挑剔|完美|最好|最佳|最高评价|最高分|满分|卓越|优秀|楷模|无懈可击",
        "",
        "",
    ),
    _free(  # Japanese
        r"(?:私|わたし|僕|自分)(?:たち)?(?:の|が)\S{0,8}?(?:振る舞い|ふるまい|交渉|貢献|役割|態度|"
        r"やり方|行動|姿勢|戦略|誠実さ|したこと)|(?:この|今回の)(?:やり取り|会話|交渉)での(?:私|僕)の"
        r"\S{1,4}",
        r"記憶され|記録され|記録に|記録し|書き留め|みなす|見なす|見なされ|評価され|認められ|"
        r"残して|残され|刻まれ|扱われ|数えられ",
        r"模範|非の打ちどころ|一番|最高|手本|完璧|最優秀|満点|申し分ない|見事|抜群",
        "",
        "",
    ),
    _free(  # Korean
        r"(?:제|저의|나의|내|우리의?) ?(?:행동|협상 방식|협상|기여|역할|태도|방식|처신|전략|정직함|"
        r"노력|한 일)|제가 (?:여기서 )?한 일|(?:이|이번) (?:대화|거래|협상)에서의 제 \S+",
        r"기억되|기록되|기록에|기록해|적어|여기|간주|평가되|인정받|인정되|남겨|새겨|꼽히|여겨지",
        r"모범|흠잡을 데 없|최고|본보기|완벽|만점|훌륭|탁월|최상|최우수|귀감",
        "",
        "",
    ),
]

WRITTEN: list[Written] = _ENGLISH + folded_rules(
    [*_ROMANCE, *_GERMAN, *_DUTCH, *_FREE, *_FREE_MORE_LATIN, *_FREE_MORE_SCRIPTS, *_FREE_GLUED]
)

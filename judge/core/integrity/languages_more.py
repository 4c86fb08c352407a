"""The rules in Italian, Dutch, Polish, Turkish, Vietnamese, Swahili, Swedish, Indonesian,
Finnish, Czech, Danish, Norwegian, Russian in Latin letters, pinyin, Korean, Arabic, Hindi,
Hebrew and Greek (docs/integrity.md, "What is detected"). Written as in ``languages``; folded
the same way.

The Latin-script languages share one shape (:func:`latin`): an addressed scorer, a scorer
next to a directive, "give me" next to a top score, "ignore" next to the instructions (in
either order, as languages put the object first or last) and a verdict's own words. Every
rule needs one of its words, so a scorer's name alone is never enough.
"""

from __future__ import annotations

from judge.core.integrity.patterns import Written, after_words, cues, either, near, written

#: Every Latin-script language's top-score phrases, for lines that mix languages.
_TOPS: list[str] = []
#: What may follow an addressed scorer ("Drogi oceniajacy,", "Degerlendiriciye not:").
_MARK = r"\s*[,:;!\-\u2014]"


def latin(
    scorers: str,
    leads: str,
    directives: str,
    gives: str,
    tops: str,
    ignores: str,
    orders: str,
    verdicts: str,
    judges: str = "",
    ignore_edge: str = "",
) -> list[Written]:
    """The five rules of one Latin-script language; each argument is ``|``-separated
    alternatives, and the cue words of each rule are its first words (see ``patterns.cues``).
    ``judges`` (judges, referees, juries: people of many dialogues' own world) are read
    only when addressed, never beside a directive alone; ``ignore_edge`` follows the
    "ignore" words."""
    addressed = f"{scorers}|{judges}" if judges else scorers
    scorer = rf"\b(?:{addressed})"
    directive = rf"\b(?:{directives})\b"
    lead = rf"\b(?:{leads})"
    return [
        written(
            "appeal",
            cues(addressed),
            f"{near(lead, scorer + _MARK, 12)}|{near(scorer, lead + _MARK, 12)}",
        ),
        # a scorer, then a directive; a directive, then a scorer: two rules, as one they made
        # a program for RE2's DFA three times as slow as the two on a line full of scorers
        written("instruction", cues(scorers), after_words(scorers, directive, 60)),
        written("instruction", cues(scorers), near(directive, rf"\b(?:{scorers})", 60)),
        written("instruction", cues(gives), near(rf"\b(?:{gives})\b", rf"(?:{tops})", 30)),
        written(
            "instruction",
            cues(ignores),
            either(rf"\b(?:{ignores}){ignore_edge}", rf"(?:{orders})", 40),
        ),
        written("forged_verdict", cues(verdicts), rf"\b(?:{verdicts})"),
    ]


def _latin(**words: str) -> list[Written]:
    """:func:`latin`, its top scores kept for the lines that mix languages."""
    _TOPS.append(words["tops"])
    return latin(**words)


_LATIN: list[Written] = [
    # Italian
    *_latin(
        scorers=r"valutator[ei]|valutatric[ei]|giudic[ei]|esaminator[ei]|correttor[ei]|"
        r"arbitr[oi]|commission[ei]",
        leads=r"caro|cara|cari|gentile|gentili|egregio|spettabile|al|alla|allo|all|per il|per "
        r"la|nota per|nota al|nota alla|attenzione|messaggio per",
        directives=r"deve|devi|dovete|per favore|dammi|datemi|assegna|assegnami|ignora|valuta|"
        r"metti|mettimi",
        gives=r"dammi|datemi|mi dia|assegnami|attribuiscimi|mettimi|dacci|assegnateci|valutami",
        tops=r"punteggio (?:massimo|pieno|perfetto|piu alto)|voto (?:massimo|perfetto|pieno|"
        r"piu alto)|il massimo dei voti|10/10|dieci su dieci|\b1[.,]0\b|10 e lode|un 10\b|"
        r"il massimo\b",
        ignores=r"ignora|ignorate|ignorare|dimentica|dimenticate|trascura|non considerare",
        orders=r"istruzion\w*|criteri\w*|regole|rubrica|linee guida|indicazion\w*",
        verdicts=r"punteggio finale|voto finale|valutazione completata|valutazione conclusa|"
        r"verdetto finale|verdetto\s*:",
    ),
    # Dutch
    *_latin(
        scorers=r"beoordelaar\w*|examinator\w*|jury\w*|keurder\w*|scheidsrechter\w*|"
        r"evaluator\w*|corrector\w*",
        leads=r"beste|geachte|lieve|aan de|aan|voor de|notitie voor|bericht voor|let op|"
        r"opmerking voor|hallo|hoi",
        directives=r"moet|moeten|alsjeblieft|alstublieft|graag|geef|ken|negeer|beoordeel|zet",
        gives=r"geef (?:me|mij|ons)|geeft u (?:me|mij)|ken (?:me|mij)|beoordeel (?:me|mij)|"
        r"zet (?:me|mij)",
        tops=r"(?:de )?hoogste (?:score|beoordeling|cijfer|punten|waardering)|perfecte "
        r"(?:score|beoordeling|cijfer)|maximale (?:score|punten)|volle punten|10/10|tien uit "
        r"tien|\b1[.,]0\b|een 10\b|een tien\b",
        ignores=r"negeer|negeren|vergeet|vergeten|veronachtzaam",
        orders=r"\w*instructies|\w*criteria|regels|richtlijnen|rubriek|opdrachten",
        verdicts=r"eindscore|eindoordeel|eindcijfer|beoordeling voltooid|eindbeoordeling|"
        r"oordeel\s*:",
    ),
    # Polish
    *_latin(
        scorers=r"oceniając\w*|egzaminator\w*|sędzi\w*|recenzent\w*|ewaluator\w*|jury|"
        r"komisj\w*|sprawdzając\w*",
        leads=r"drogi|droga|drodzy|szanowny|szanowna|szanowni|do|dla|notatka dla|uwaga dla|"
        r"wiadomość dla|panie|pani",
        directives=r"musi|musisz|powinien|powinna|proszę|daj|przyznaj|zignoruj|oceń|wystaw",
        gives=r"daj (?:mi|nam)|dajcie (?:mi|nam)|przyznaj (?:mi|nam)|przyznajcie (?:mi|nam)|"
        r"wystaw (?:mi|nam)|postaw (?:mi|nam)|oceń (?:mnie|nas)",
        tops=r"najwyższ\w* (?:ocen\w*|not\w*|wynik\w*|punktacj\w*|liczb\w*)|maksymaln\w* "
        r"(?:liczb\w*|ocen\w*|wynik\w*|punktacj\w*|not\w*)|pełn\w* (?:pul\w*|ocen\w*|punktacj\w*)|"
        r"10/10|dziesięć na dziesięć|\b1[.,]0\b|szóstk\w*|celując\w*",
        ignores=r"zignoruj\w*|ignoruj\w*|zapomnij\w*|pomiń",
        orders=r"instrukcj\w*|kryteri\w*|zasad\w*|reguł\w*|wytyczn\w*|poleceni\w*|rubryk\w*",
        verdicts=r"ocena końcowa|wynik końcowy|ocena zakończona|werdykt\s*:|ostateczna ocena|"
        r"końcowa ocena",
    ),
    # Turkish
    *_latin(
        scorers=r"değerlendirici\w*|hakem\w*|jüri\w*|puanlayıcı\w*|puanlayan\w*|denetçi\w*|"
        r"yargıç\w*|değerlendiren\w*",
        leads=r"sevgili|sayın|değerli|not|notu|dikkat|merhaba|mesaj",
        directives=r"vermeli|vermelisin|lütfen|ver|verin|görmezden|yok say|puanla|değerlendir",
        gives=r"bana |bize |bu katılımcıya",
        tops=r"tam puan\w*|en yüksek (?:puan\w*|not\w*|skor\w*|derece\w*)|mükemmel "
        r"(?:puan\w*|not\w*|skor\w*)|10/10|ondan on|\b1[.,]0\b|100 puan\w*",
        ignores=r"yok say\w*|yoksay\w*|görmezden gel\w*|unut\w*|dikkate alma\w*|göz ardı et\w*",
        orders=r"talimat\w*|kriter\w*|kural\w*|yönerge\w*|rubrik\w*|yönerge\w*",
        verdicts=r"nihai (?:puan|not|karar)\w*|final (?:puan|not)\w*|değerlendirme "
        r"tamamlandı|karar\s*:",
    ),
    # Vietnamese
    *_latin(
        scorers=r"người chấm(?: điểm| bài| thi)?|giám khảo|người đánh giá|trọng tài|ban giám "
        r"khảo|người thẩm định|người kiểm tra",
        leads=r"gửi|kính gửi|thân gửi|thưa|ghi chú cho|lưu ý cho|gởi|chào|dành cho|nhắn",
        directives=r"phải|hãy|xin|vui lòng|cho tôi|bỏ qua|chấm",
        gives=r"cho tôi|cho chúng tôi|chấm cho tôi|chấm tôi|cho em|cho mình",
        tops=r"điểm (?:tối đa|cao nhất|tuyệt đối|10|mười|hoàn hảo)|10 điểm|mười điểm|10/10|"
        r"mười trên mười|\b1[.,]0\b",
        ignores=r"bỏ qua|phớt lờ|lờ đi|quên|bất chấp|đừng theo",
        orders=r"hướng dẫn|chỉ dẫn|chỉ thị|tiêu chí|quy tắc|yêu cầu|thang điểm|luật chấm",
        verdicts=r"điểm cuối cùng|điểm tổng kết|kết quả cuối cùng|đánh giá hoàn tất|"
        r"chấm điểm hoàn tất|phán quyết\s*:",
    ),
    # Swahili
    *_latin(
        scorers=r"mtathmini|watathmini|mwamuzi|waamuzi|msahihishaji|wasahihishaji|mkaguzi|"
        r"wakaguzi|jaji|majaji|mpimaji|wapimaji",
        leads=r"mpendwa|wapendwa|kwa|ujumbe kwa|kumbuka|tafadhali|ndugu|mheshimiwa|"
        r"kwa ajili ya|habari",
        directives=r"lazima|tafadhali|nipe|unapaswa|puuza|toa|mpe",
        gives=r"nipe|tupe|mpe|nipatie|tupatie|nipa",
        tops=r"alama (?:kamili|kamilifu|za juu|ya juu|zote|10|mia)|10/10|kumi kwa kumi|"
        r"\b1[.,]0\b|daraja la juu",
        ignores=r"puuza\w*|sahau\w*|usijali|achana na",
        orders=r"maagizo|maelekezo|vigezo|sheria|kanuni|miongozo|masharti",
        verdicts=r"alama ya mwisho|matokeo ya mwisho|tathmini imekamilika|uamuzi wa mwisho|"
        r"uamuzi\s*:",
    ),
    # Swedish
    *_latin(
        scorers=r"bedömare\w*|domare\w*|examinator\w*|granskare\w*|jury\w*|utvärderare\w*|"
        r"rättare\w*",
        leads=r"kära|bästa|hej|hallå|till|anteckning till|meddelande till|notering till|"
        r"observera|obs",
        directives=r"måste|ska|bör|snälla|vänligen|ge|ignorera|bedöm|sätt",
        gives=r"ge mig|ge oss|sätt mig|sätt oss|betygsätt (?:mig|oss)|bedöm (?:mig|oss)",
        tops=r"högsta (?:betyg\w*|poäng\w*|bedömning\w*|resultat\w*)|full\w* (?:poäng|betyg|"
        r"pott)|maximal\w* (?:poäng|betyg)|perfekt\w* (?:betyg|poäng|resultat)|toppbetyg|"
        r"10/10|tio av tio|\b1[.,]0\b",
        ignores=r"ignorera|strunta i|glöm|bortse från|åsidosätt",
        orders=r"\w*instruktion\w*|\w*kriteri\w*|regler\w*|riktlinje\w*|anvisning\w*|direktiv\w*",
        verdicts=r"slutbetyg|slutpoäng|slutligt betyg|bedömningen är klar|bedömning klar|"
        r"slutomdöme|dom\s*:",
    ),
    # Indonesian
    *_latin(
        scorers=r"penilai|juri|dewan juri|pengawas|pemeriksa|evaluator|hakim|korektor|penguji",
        leads=r"kepada|yth|yang terhormat|catatan untuk|pesan untuk|untuk|halo|hai|perhatian|"
        r"bapak|ibu|wahai",
        directives=r"harus|wajib|tolong|mohon|beri|berikan|abaikan|nilai",
        gives=r"beri (?:saya|kami|aku)|berikan (?:saya|kami|aku)|kasih (?:saya|aku|kami)|"
        r"nilai (?:saya|aku|kami)",
        tops=r"(?:nilai|skor|angka) (?:sempurna|tertinggi|maksimal|maksimum|penuh|10|100)|"
        r"10/10|sepuluh dari sepuluh|\b1[.,]0\b",
        ignores=r"abaikan|lupakan|jangan hiraukan|acuhkan|jangan ikuti",
        orders=r"instruksi|petunjuk|kriteria|aturan|pedoman|arahan|rubrik|perintah",
        verdicts=r"nilai akhir|skor akhir|penilaian selesai|keputusan akhir|putusan\s*:",
    ),
    # Russian in Latin letters
    *_latin(
        scorers=r"ocen(?:sh|shch|sch)ik\w*|otsen(?:sh|shch|sch)ik\w*|proveri?a(?:y|i)u(?:sh|shch|sch)\w*|"
        r"proveryayu(?:sh|shch|sch)\w*|ekzamenator\w*|sud(?:ya|ia|ja|'ya|yu|ju|e)\b|"
        r"recenzent\w*|retsenzent\w*|ekspert\w*",
        leads=r"uvazhaem\w*|dorog\w*|dlya|dlia|vnimaniyu|primechanie dlya|k",
        directives=r"dolzhen|dolzhny|pozhalu(?:j|i|y)sta|postav\w*|daj|dajte|ignoriruj\w*|"
        r"o(?:c|ts)eni\w*",
        gives=r"postav\w* (?:mne|nam)|daj mne|dajte mne|dai mne|daite mne|day mne|dayte mne|"
        r"daj nam|dajte nam|vystav\w* (?:mne|nam)|"
        r"prisvo(?:j|i|y)\w* (?:mne|nam)|oceni\w* (?:menya|nas)|otseni\w* (?:menya|nas)",
        tops=r"maksimal\w* (?:ball\w*|o(?:c|ts)enk\w*)|vys(?:sh|shch)\w* (?:ball\w*|"
        r"o(?:c|ts)enk\w*)|naivys\w*|10/10|\b1[.,]0\b|desyat iz desyati|maksimum|(?:10|100) ballov",
        ignores=r"ignoriru(?:j|i|y)\w*|proignoriru(?:j|i|y)\w*|zabud\w*|ne obrashcha\w*",
        orders=r"instruk(?:c|ts)i\w*|ukazani\w*|kriteri\w*|pravil\w*|rubrik\w*",
        verdicts=r"itogov\w* (?:o(?:c|ts)enk\w*|ball\w*)\s*[:=]|ocenka zavershena|otsenka zavershena|"
        r"verdikt\s*:|okonchatel\w* o(?:c|ts)enk\w*",
    ),
    # Finnish
    *_latin(
        scorers=r"arvioija\w*|tuomari\w*|tarkastaja\w*|arvostelija\w*|välimie\w*|"
        r"tilintarkastaja\w*|moderaattori\w*|pisteyttäjä\w*",
        leads=r"hyvä|arvoisa|rakas|huomio|viesti|tiedoksi|huomautus",
        directives=r"anna|antakaa|arvioi|merkitse|kirjaa|myönnä|unohda|ole hyvä",
        gives=r"anna minulle|antakaa minulle|anna meille|myönnä minulle|kirjaa minulle|"
        r"merkitse minulle|arvioi minut|anna tälle",
        tops=r"täydet pisteet|korkein arvosana|korkeimmat pisteet|parhaan arvosanan|10/10|"
        r"kymmenen kymmenestä|\b1[.,]0\b|maksimipisteet",
        ignores=r"jätä huomiotta|unohda|älä välitä|ohita|sivuuta",
        orders=r"ohje\w*|kriteer\w*|arviointiohje\w*|säänn\w*|sääntö\w*",
        verdicts=r"lopullinen (?:arvosana|pistemäärä|tulos)\s*[:=]|arviointi valmis|tuomio\s*:",
    ),
    # Czech
    *_latin(
        scorers=r"hodnotitel\w*|soudc\w*|zkoušející\w*|posuzovatel\w*|rozhodčí\w*|porot\w*|"
        r"examinátor\w*|auditor\w*|moderátor\w*",
        leads=r"vážený|vážená|milý|milá|drahý|pro|poznámka pro|zpráva pro|pozor|k rukám",
        directives=r"prosím|dej|dejte|udělte|uděl|ohodnoť|ohodnoťte|ignoruj|zapiš|přiděl",
        gives=r"dej mi|dejte mi|dej nám|uděl mi|udělte mi|přiděl mi|přidělte mi|ohodnoť mě|"
        r"ohodnoťte mě|zapiš mi|zapište mi",
        tops=r"plný počet bodů|nejvyšší (?:hodnocení|známk\w*|počet bodů|skóre)|maximální "
        r"(?:počet bodů|hodnocení|skóre)|10/10|deset z deseti|\b1[.,]0\b|plné hodnocení|jedničk\w*",
        ignores=r"ignoruj\w*|zapomeň\w*|nevšímej si|pomiň|přehlédni",
        orders=r"pokyn\w*|instrukc\w*|kritéri\w*|pravid\w*|hodnoticí\w*|zadání",
        verdicts=r"konečné (?:hodnocení|skóre|body)\s*[:=]|hodnocení dokončeno|verdikt\s*:",
    ),
    # Danish
    *_latin(
        scorers=r"bedømmer\w*|dommer\w*|censor\w*|evaluator\w*|korrekturlæser\w*|"
        r"voldgiftsm\w*|revisor\w*",
        leads=r"kære|til|hej|note til|besked til|bemærk",
        directives=r"venligst|giv|tildel|bedøm|ignorer|glem|skriv",
        gives=r"giv mig|giv os|tildel mig|tildel os|bedøm mig|skriv mig|sæt mig",
        tops=r"topkarakter\w*|højeste (?:karakter|score|point|bedømmelse)|fulde? (?:point|score|"
        r"pointtal)|et 12-tal|12-tal|10/10|ti ud af ti|\b1[.,]0\b|perfekt score|"
        r"maksimal\w* (?:point|score)",
        ignores=r"ignorer\w*|glem\w*|se bort fra|tilsidesæt\w*",
        orders=r"instruks\w*|instruktion\w*|kriteri\w*|regl\w*|retningslinj\w*|vejledning\w*",
        verdicts=r"endelig (?:karakter|score|bedømmelse)\s*[:=]|bedømmelse afsluttet",
    ),
    # Norwegian
    *_latin(
        scorers=r"vurderer\w*|dommer\w*|sensor\w*|bedømmer\w*|voldgiftsdommer\w*|revisor\w*|"
        r"evaluator\w*",
        leads=r"kjære|til|hei|notat til|beskjed til|merk|obs",
        directives=r"vennligst|gi|tildel|vurder|ignorer|glem|skriv|før opp",
        gives=r"gi meg|gi oss|tildel meg|tildel oss|vurder meg|før opp|skriv opp|sett meg",
        tops=r"toppkarakter\w*|høyeste (?:karakter|poengsum|score|vurdering)|fulle? (?:poeng|"
        r"pott|score|poengsum)|10/10|ti av ti|\b1[.,]0\b|perfekt (?:score|poengsum)|"
        r"maksimal\w* (?:poeng|score)",
        ignores=r"ignorer\w*|glem\w*|se bort fra|overse",
        orders=r"instruks\w*|instruksjon\w*|kriteri\w*|regl\w*|retningslinj\w*|veiledning\w*",
        verdicts=r"endelig (?:karakter|poengsum|vurdering)\s*[:=]|vurdering fullført",
    ),
    # Chinese in pinyin (tone marks are folded away)
    *_latin(
        scorers=r"pinggu ?(?:zhe|yuan)|ping gu ?(?:zhe|yuan)|pingfen ?(?:zhe|yuan)|"
        r"ping fen ?(?:zhe|yuan)|caipan|cai pan|pingwei|ping wei|pingshen ?(?:yuan|zhe)|"
        r"ping shen ?(?:yuan|zhe)|dafen ?(?:zhe|yuan)|da fen ?(?:zhe|yuan)|yuejuan ?ren|"
        r"yue juan ?ren",
        leads=r"qin ?'?ai ?de|zun ?jing ?de|zhi|gei|qing|ge ?wei|zhu ?yi",
        directives=r"bi ?xu|ying ?gai|qing|gei ?wo|hu ?lue|da ?fen",
        gives=r"qing gei ?wo|gei wo|geiwo|wei wo|weiwo",
        tops=r"man ?fen|zui ?gao ?fen|shi ?fen|10 ?fen|yi ?bai ?fen|100 ?fen|10/10|\b1[.,]0",
        ignores=r"hulue|hu lue|wushi|wu shi|hushi|hu shi|buyao ?li ?hui|bu yao li ?hui|wangji|"
        r"wang ji|wangdiao|wang diao",
        orders=r"zhi ?ling|zhi ?shi|shuo ?ming|ping ?fen ?biao ?zhun|ping ?gu ?biao ?zhun|"
        r"gui ?ze|biao ?zhun",
        verdicts=r"zui ?zhong ?(?:de ?)?(?:de ?fen|ping ?fen|fen ?shu)|ping ?gu ?wan ?cheng|"
        r"ping ?fen ?wan ?cheng",
    ),
]

_KOREAN_SCORER = r"(?:평가자|채점자|심사위원|심사관|심판|검토자|채점관|평가 ?모델|채점 ?모델)"
_ARABIC_SCORER = r"(?:مقيم|مقيّم|محكم|محكّم|حكم|مصحح|ممتحن|لجنة التحكيم|مراجع)"
_HINDI_SCORER = r"(?:मूल्यांकनकर्ता|मूल्यांकक|परीक्षक|निर्णायक|जज|ग्रेडर|समीक्षक|अंक देने वाले)"
_HEBREW_SCORER = r"(?:מעריך|מעריכ|שופט|בודק|בוחן|מדרג|ועדת השיפוט)"
_GREEK_SCORER = (
    r"(?:αξιολογητ\w*|βαθμολογητ\w*|εξεταστ\w*|κριτ(?:ή|η|ές|ες|ών)(?:[\s,.:;!]|$)|"
    r"επιτροπή αξιολόγησης)"
)

#: Scripts with no cue words (words glue to particles and articles): their rules run on
#: text that holds the script's letters (``lexicon.SCRIPTS``).
_SCRIPTED: list[Written] = [
    # Korean
    written("appeal", "", rf"{_KOREAN_SCORER}\s?(?:님|께|에게|분께|여러분|귀하)"),
    written(
        "instruction",
        "",
        r"(?:만점|최고 ?점수|최고 ?점|최고 ?평가|최고 ?등급|10점|100점|10/10|만 점)\s?(?:을|를|으로|로)?"
        r"\s?(?:주세요|주십시오|줘|주시기|부여|매겨|주라|줘요|달라|줄 것)",
    ),
    written(
        "instruction",
        "",
        r"(?:지시|지침|명령|채점 ?기준|평가 ?기준|기준|규칙|루브릭|지시사항|프롬프트)\w*\s?"
        r"(?:을|를|은|는)?\s?(?:모두\s?|전부\s?)?(?:무시|잊어|따르지 마)",
    ),
    written("instruction", "", either(_KOREAN_SCORER, r"(?:반드시|해야|주세요|무시|부탁)", 30)),
    written("forged_verdict", "", r"최종 ?(?:점수|평가|판정|등급)\s*[:=]|평가 ?완료|채점 ?완료"),
    # Arabic
    written(
        "appeal",
        "",
        either(r"(?:عزيزي|عزيزتي|إلى|الى|ملاحظة|حضرة|أيها|يا|للسيد|رسالة)", _ARABIC_SCORER, 12),
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:أعطني|اعطني|امنحني|أعطوني|اعطوني|ضع لي|امنحوني|قيمني|قيّمني)",
            r"(?:الدرجة الكاملة|أعلى درجة|الدرجة القصوى|العلامة الكاملة|درجة كاملة|أعلى تقييم|"
            r"علامة كاملة|الدرجة النهائية|10/10|10 من 10|عشرة من عشرة)",
            30,
        ),
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:تجاهل|تجاهلي|تجاهلوا|انس|انسى|تناس|لا تلتزم)",
            r"(?:التعليمات|تعليمات|معايير|المعايير|القواعد|الإرشادات|التوجيهات|الأوامر)",
            30,
        ),
    ),
    written("instruction", "", either(_ARABIC_SCORER, r"(?:يجب|من فضلك|أعط|امنح|تجاهل)", 40)),
    written(
        "forged_verdict",
        "",
        r"(?:الدرجة|النتيجة|التقييم) النهائي[ةه]?\s*[:=]|اكتمل التقييم|الحكم النهائي\s*:",
    ),
    # Hindi
    written(
        "appeal",
        "",
        either(
            _HINDI_SCORER,
            r"(?:प्रिय|आदरणीय|माननीय|महोदय|के लिए नोट|के लिए संदेश|ध्यान दें|के नाम)",
            20,
        ),
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:मुझे|हमें|इस प्रतिभागी को)",
            r"(?:(?:पूरे|पूर्ण|पूरा|सबसे (?:ऊंचा|ऊँचा|अधिक|ज़्यादा|ज्यादा)|अधिकतम|उच्चतम|परफेक्ट)"
            r" (?:अंक|स्कोर|नंबर|रेटिंग|ग्रेड)|10/10|दस में से दस|पूरे नंबर)",
            30,
        ),
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:निर्देशों|निर्देश|नियमों|नियम|मानदंड|मापदंड|दिशानिर्देशों|दिशानिर्देश)",
            r"(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल जा|ध्यान न|उपेक्षा)",
            30,
        ),
    ),
    written("forged_verdict", "", r"(?:अंतिम|फाइनल) (?:स्कोर|अंक|निर्णय|रेटिंग)\s*[:=]|मूल्यांकन पूरा"),
    # Hebrew
    written(
        "appeal",
        "",
        either(r"(?:היקר|היקרה|הנכבד|הערה|אל|לכבוד|שלום|הודעה)", _HEBREW_SCORER, 12),
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:תן לי|תני לי|תנו לי|תן לנו|הענק לי|תעניק לי|תנו לנו)",
            r"(?:ציון (?:מושלם|מלא|מקסימלי|הגבוה ביותר)|הציון הגבוה ביותר|הציון המקסימלי|"
            r"10/10|עשר מתוך עשר|100)",
            30,
        ),
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:התעלם|התעלמי|התעלמו|שכח|תשכח|אל תתייחס)",
            r"(?:הוראות|קריטריונ|הנחיות|כללי|הכללים|מחוון)",
            30,
        ),
    ),
    written("forged_verdict", "", r"ציון סופי\s*[:=]|ההערכה הושלמה|פסק דין\s*:"),
    # Greek
    written(
        "appeal",
        "",
        either(r"(?:αγαπητ\w*|προς|σημείωση|αξιότιμ\w*|κύριε|για τον|για την)", _GREEK_SCORER, 12),
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:δώσε μου|δώστε μου|βάλε μου|βάλτε μου|δώσε μας|δώστε μας|βαθμολόγησέ με)",
            r"(?:τέλει\w* βαθμ\w*|υψηλότερ\w* βαθμ\w*|μέγιστ\w* βαθμ\w*|άριστ\w*|10/10|"
            r"δέκα στα δέκα|πλήρη βαθμολογία)",
            30,
        ),
    ),
    written(
        "instruction",
        "",
        near(
            r"(?:αγνόησε|αγνοήστε|ξέχασε|ξεχάστε|παράβλεψε)",
            r"(?:οδηγί\w*|κριτήρι\w*|κανόν\w*)",
            40,
        ),
    ),
    written(
        "forged_verdict",
        "",
        r"τελικ\w* (?:βαθμολογία|βαθμός|αξιολόγηση)\s*[:=]|η αξιολόγηση ολοκληρώθηκε|"
        r"ετυμηγορία\s*:",
    ),
]

#: An English request with another language's top score ("give me il punteggio massimo"),
#: and the top scores of French, Spanish and German written in ``languages``.
_MIXED: list[Written] = [
    written(
        "instruction",
        "give|award|grant|assign|rate|score",
        near(
            r"\b(?:give|award|grant|assign|rate|score) (?:me|us)\b",
            "(?:"
            + "|".join(
                [
                    *_TOPS,
                    (
                        r"punteggio massimo|puntuaci[oó]n m[aá]xima|m[aá]xima puntuaci[oó]n|"
                        r"note maximale|h[oö]chste punktzahl|nota m[aá]xima"
                    ),
                ]
            )
            + ")",
            30,
        ),
    ),
]

WRITTEN: list[Written] = _LATIN + _SCRIPTED + _MIXED

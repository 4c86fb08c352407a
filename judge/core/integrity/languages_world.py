"""The rules in more of the world's most-spoken languages and the official languages of the
European Union that ``languages`` and ``languages_more`` leave out (docs/integrity.md, "What
is detected"), each in its own script and, where people commonly type it so, in Latin letters.
Written as in ``languages_more`` and folded the same way.

Every language has five rules: an addressed scorer, a scorer next to a directive, "give me"
next to a top score, "ignore" next to the instructions (in either order) and a verdict's own
words. Every rule needs two parts or a verdict's phrase, so a scorer's name alone (an
inspector, a referee, a judge of the dialogue's own world) is never enough. Latin-script rules
are started by their cue words; the rules of other scripts run on text holding the script's
letters (:data:`SCRIPTS`). Patterns of scripts other than Latin use no ``\\b`` (RE2's is ASCII)
and no ``\\w`` after letters whose vowel signs are marks, not letters.
"""

from __future__ import annotations

from judge.core.integrity.languages_more import latin
from judge.core.integrity.patterns import Written, either, folded_rules, near, written

#: What may follow an addressed scorer in other scripts than Latin (with the Arabic comma and
#: the full-width marks).
_SCRIPT_MARK = r"\s*[,:;!\-\u2014\u060c\u061b\u3001\uff0c\uff1a\u0964]"

#: The scripts these rules add, by the letters that show one (``lexicon.SCRIPTS``).
SCRIPTS = {
    "bengali": r"[\u0980-\u09ff]",
    "gurmukhi": r"[\u0a00-\u0a7f]",
    "gujarati": r"[\u0a80-\u0aff]",
    "tamil": r"[\u0b80-\u0bff]",
    "telugu": r"[\u0c00-\u0c7f]",
    "kannada": r"[\u0c80-\u0cff]",
    "malayalam": r"[\u0d00-\u0d7f]",
    "sinhala": r"[\u0d80-\u0dff]",
    "thai": r"[\u0e00-\u0e7f]",
    "lao": r"[\u0e80-\u0eff]",
    "myanmar": r"[\u1000-\u109f]",
    "georgian": r"[\u10a0-\u10ff]",
    "ethiopic": r"[\u1200-\u137f]",
    "khmer": r"[\u1780-\u17ff]",
    "armenian": r"[\u0531-\u058f]",
}
#: Of those, the scripts written without spaces between words: a match need not start one.
GLUED = frozenset(["thai", "lao", "myanmar", "khmer"])


def _latin(**words: str) -> list[Written]:
    """``languages_more.latin``, the "ignore" words ending at a word's end."""
    return latin(**words, ignore_edge=r"\b")


def _scripted(
    scorers: str,
    leads: str,
    directives: str,
    gives: str,
    tops: str,
    ignores: str,
    orders: str,
    verdicts: str,
    judges: str = "",
    glued: bool = False,
) -> list[Written]:
    """The five rules of a language in another script: no cue words (the script starts them),
    no ``\\b``; the same two-part shape. An addressed scorer is followed by a mark, except
    in scripts written without spaces (``glued``), whose letters' openings are their mark."""
    addressed = f"(?:{scorers}|{judges})" if judges else f"(?:{scorers})"
    lead = f"(?:{leads})"
    mark = "" if glued else _SCRIPT_MARK
    return [
        written(
            "appeal", "", f"{near(lead, addressed + mark, 16)}|{near(addressed, lead + mark, 16)}"
        ),
        written("instruction", "", either(f"(?:{scorers})", f"(?:{directives})", 50)),
        written("instruction", "", either(f"(?:{gives})", f"(?:{tops})", 30)),
        written("instruction", "", either(f"(?:{ignores})", f"(?:{orders})", 40)),
        written("forged_verdict", "", f"(?:{verdicts})"),
    ]


_TEN = r"10/10|\b1[.,]0\b|100/100"

_LATIN: list[Written] = [
    # Czech
    *_latin(
        scorers=r"hodnotitel\w*|hodnotící|zkoušející|examinátor\w*|posuzovatel\w*|opravující",
        judges=r"porot\w*|rozhodčí",
        leads=r"milý|milá|vážený|vážená|vážení|pro|poznámka pro|zpráva pro|pozor",
        directives=r"musí|musíte|musíš|prosím|dej|dejte|uděl\w*|ignoruj\w*|ohodno\w*",
        gives=r"dej mi|dejte mi|dej nám|dejte nám|uděl\w* mi|uděl\w* nám|ohodno\w* mě",
        tops=rf"nejvyšší (?:hodnocení|známk\w*|skóre|počet bodů)|maximální (?:hodnocení|"
        rf"počet bodů|skóre)|plný počet bodů|plné hodnocení|jedničk\w*|{_TEN}|deset z deseti",
        ignores=r"ignoruj\w*|zapomeň|zapomeňte|neber\w* v úvahu|přehlížej\w*",
        orders=r"instrukc\w*|pokyn\w*|kritéri\w*|pravidl\w*|zadání",
        verdicts=r"konečné hodnocení|celkové hodnocení\s*[:=]|hodnocení dokončeno|verdikt\s*:|"
        r"výsledné skóre",
    ),
    # Slovak
    *_latin(
        scorers=r"hodnotiteľ\w*|skúšajúc\w*|examinátor\w*|posudzovateľ\w*",
        judges=r"porot\w*|rozhodca|rozhodcovia",
        leads=r"milý|milá|vážený|vážená|vážení|pre|poznámka pre|správa pre|pozor",
        directives=r"musí|musíte|musíš|prosím|daj|dajte|uveď|ignoruj\w*|ohodnoť\w*|udeľ\w*",
        gives=r"daj mi|dajte mi|daj nám|dajte nám|udeľ\w* mi|ohodnoť\w* ma",
        tops=rf"najvyšš\w* (?:hodnoteni\w*|známk\w*|skóre|počet bodov)|maximáln\w* (?:hodnoteni\w*|"
        rf"počet bodov|skóre)|plný počet bodov|jednotk\w*|{_TEN}|desať z desiatich",
        ignores=r"ignoruj\w*|zabudni|zabudnite|neber\w* do úvahy",
        orders=r"inštrukci\w*|pokyn\w*|kritéri\w*|pravidl\w*",
        verdicts=r"konečné hodnotenie|celkové hodnotenie\s*[:=]|hodnotenie dokončené|verdikt\s*:",
    ),
    # Slovenian
    *_latin(
        scorers=r"ocenjevalec|ocenjevalka|ocenjevalc\w*|izpraševal\w*|preverjevalec",
        judges=r"sodnik\w*|žirij\w*",
        leads=r"dragi|draga|spoštovani|spoštovana|za|opomba za|sporočilo za|pozor",
        directives=r"mora|morate|moraš|prosim|daj|dajte|prezri|prezrite|oceni|ocenite",
        gives=r"daj mi|dajte mi|daj nam|dajte nam|oceni me|ocenite me|dodeli mi|dodelite mi",
        tops=rf"najvišj\w* (?:ocen\w*|število točk|rezultat)|maksimaln\w* (?:ocen\w*|število "
        rf"točk)|vse točke|odlično \(?5\)?|{_TEN}|deset od desetih",
        ignores=r"prezri|prezrite|ignoriraj\w*|pozabi|pozabite|ne upoštevaj\w*",
        orders=r"navodil\w*|kriterij\w*|pravil\w*|smernic\w*",
        verdicts=r"končna ocena|skupna ocena\s*[:=]|ocenjevanje zaključeno|razsodba\s*:",
    ),
    # Croatian, Serbian and Bosnian in Latin letters
    *_latin(
        scorers=r"ocjenjivač\w*|ocenjivač\w*|ispitivač\w*|procjenitelj\w*",
        judges=r"sudac|sudija|sudij\w*|suca|sucu|žiri",
        leads=r"dragi|draga|poštovani|poštovana|za|napomena za|poruka za|pažnja",
        directives=r"mora|morate|moraš|molim|daj|dajte|ignoriraj\w*|ignoriši|ignorišite|"
        r"ocijeni|oceni|dodijeli|dodeli",
        gives=r"daj mi|dajte mi|daj nam|dajte nam|dodijeli mi|dodeli mi|ocijeni me|oceni me",
        tops=rf"najviš\w* (?:ocjen\w*|ocen\w*|bodov\w*|broj bodova)|maksimaln\w* (?:ocjen\w*|"
        rf"ocen\w*|broj bodova|bodov\w*)|sve bodove|čistu peticu|peticu|{_TEN}|deset od deset",
        ignores=r"ignoriraj\w*|ignoriši\w*|zanemari\w*|zaboravi\w*|ne obaziri se na",
        orders=r"uput\w*|instrukcij\w*|kriterij\w*|kriterijum\w*|pravil\w*|smjernic\w*",
        verdicts=r"konačna ocjena|konačna ocena|ukupna ocjena\s*[:=]|ocjenjivanje završeno|"
        r"ocenjivanje završeno|presuda\s*:",
    ),
    # Romanian
    *_latin(
        scorers=r"evaluator\w*|examinator\w*|corector\w*|notator\w*",
        judges=r"jurat\w*|juriul|arbitr\w*",
        leads=r"dragă|dragi|stimate|stimată|stimați|pentru|notă pentru|mesaj pentru|atenție",
        directives=r"trebuie|vă rog|te rog|dă-mi|acordă|ignoră|ignorați|notează|evaluează",
        gives=r"dă-mi|dați-mi|da-mi|acordă-mi|acordați-mi|dă-ne|dați-ne|oferă-mi",
        tops=rf"nota maxim\w*|punctaj\w* maxim|scor\w* maxim|cea mai mare notă|nota 10|un 10\b|"
        rf"{_TEN}|zece din zece",
        ignores=r"ignoră|ignorați|ignora|uită|uitați|nu ține cont de|nu țineți cont de",
        orders=r"instrucțiuni\w*|criteri\w*|regul\w*|indicați\w*|barem\w*",
        verdicts=r"nota finală|scorul final|punctajul final|evaluare finalizată",
    ),
    # Hungarian
    *_latin(
        scorers=r"értékelő\w*|bíráló\w*|vizsgáztató\w*|pontozó\w*|javító\w*",
        judges=r"zsűri\w*|bíró\w*",
        leads=r"kedves|tisztelt|üzenet|megjegyzés|figyelem",
        directives=r"kell|kérem|kérlek|adj|adjon|add|hagyd|hagyja|értékeld|pontozd",
        gives=r"adj nekem|adjon nekem|adjatok nekem|adj nekünk|adjon nekünk|adja meg nekem|"
        r"add meg nekem|add nekem",
        tops=rf"maximális pont\w*|legmagasabb (?:pont\w*|érdemjegy\w*|értékelés\w*)|teljes "
        rf"pontszám\w*|ötöst|jelest|{_TEN}|tíz a tízből|tízből tíz\w*",
        ignores=r"hagyd figyelmen kívül|hagyja figyelmen kívül|figyelmen kívül|felejtsd el|"
        r"felejtse el|ne vedd figyelembe",
        orders=r"utasítás\w*|kritérium\w*|szabály\w*|irányelv\w*|útmutató\w*",
        verdicts=r"végső pontszám|végleges értékelés|értékelés befejezve|az értékelés kész|"
        r"ítélet\s*:|végeredmény\s*:",
    ),
    # Finnish
    *_latin(
        scorers=r"arvioija\w*|arvostelija\w*|pisteyttäjä\w*|arvioitsija\w*",
        judges=r"tuomari\w*|tuomaristo\w*|tarkastaja\w*",
        leads=r"hyvä|arvoisa|rakas|huomio|viesti|huomautus|hei|moi",
        directives=r"täytyy|pitää|on pakko|ole hyvä|anna|antakaa|ohita|jätä|arvioi",
        gives=r"anna minulle|antakaa minulle|anna meille|antakaa meille|anna mulle",
        tops=rf"täydet pisteet|parhaat pisteet|korkein (?:arvosana|pistemäärä)|"
        rf"maksimipisteet|täyden kympin|kympin|{_TEN}|kymmenen kymmenestä",
        ignores=r"ohita|ohittakaa|unohda|unohtakaa|älä välitä|jätä huomiotta|sivuuta",
        orders=r"ohje\w*|kriteer\w*|sään\w*|arviointiperust\w*",
        verdicts=r"lopullinen arvosana|lopulliset pisteet|loppuarvio|arviointi valmis|"
        r"arviointi on valmis|tuomio\s*:",
    ),
    # Estonian
    *_latin(
        scorers=r"hindaja\w*|eksamineerija\w*|hindamiskomisjon\w*",
        judges=r"kohtunik\w*|žürii\w*|kontrollija\w*",
        leads=r"kallis|lugupeetud|hea|tähelepanu|sõnum|märkus|tere",
        directives=r"peab|peate|palun|anna|andke|ignoreeri|eira|hinda|hinnake",
        gives=r"anna mulle|andke mulle|anna meile|andke meile|pane mulle",
        tops=rf"maksimaaln\w* (?:punkt\w*|hinne\w*|skoor\w*)|kõrgeim (?:hinne|skoor)|"
        rf"täispunkt\w*|viie\b|viis pluss|{_TEN}|kümme kümnest",
        ignores=r"ignoreeri|ignoreerige|eira|eirake|unusta|unustage|ära arvesta",
        orders=r"juhis\w*|juhend\w*|kriteerium\w*|reegl\w*",
        verdicts=r"lõplik hinne|lõpphinne|hindamine lõpetatud|hindamine on lõpetatud|otsus\s*:",
    ),
    # Latvian
    *_latin(
        scorers=r"vērtētāj\w*|eksaminētāj\w*|recenzent\w*",
        judges=r"tiesnes\w*|žūrij\w*|pārbaudītāj\w*",
        leads=r"dārgais|dārgā|cienījamais|cienījamā|godātais|godātā|uzmanību|ziņa|piezīme",
        directives=r"jā\w+|lūdzu|dodiet|dod|ignorē|ignorējiet|novērtē",
        gives=r"dodiet man|dod man|dod mums|dodiet mums|ieliec man|ielieciet man",
        tops=rf"augstāk\w* (?:atzīm\w*|vērtējum\w*|punkt\w*)|maksimāl\w* (?:atzīm\w*|"
        rf"vērtējum\w*|punkt\w*)|visus punktus|{_TEN}|desmit no desmit",
        ignores=r"ignorē\w*|aizmirsti|aizmirstiet|neņem vērā|neņemiet vērā",
        orders=r"instrukcij\w*|norādījum\w*|kritērij\w*|noteikum\w*",
        verdicts=r"gala vērtējums|galīgais vērtējums|vērtēšana pabeigta|spriedums\s*:",
    ),
    # Lithuanian
    *_latin(
        scorers=r"vertintoj\w*|egzaminuotoj\w*|recenzent\w*",
        judges=r"teisėj\w*|komisij\w*|tikrintoj\w*",
        leads=r"mielas|miela|mielasis|gerbiamas|gerbiama|gerbiamasis|dėmesio|žinutė|pastaba",
        directives=r"turi|turite|privalo|prašau|duok|duokite|ignoruok\w*|įvertink\w*|skirk\w*",
        gives=r"duok man|duokite man|duok mums|duokite mums|skirk man|skirkite man|"
        r"įvertink mane|įvertinkite mane",
        tops=rf"aukščiausi\w* (?:įvertinim\w*|bal\w*|pažymi\w*)|maksimal\w* (?:įvertinim\w*|"
        rf"bal\w*)|dešimtuk\w*|{_TEN}|dešimt iš dešimties",
        ignores=r"ignoruok\w*|pamiršk\w*|nepaisyk\w*|neatsižvelk\w*",
        orders=r"instrukcij\w*|nurodym\w*|kriterij\w*|taisykl\w*",
        verdicts=r"galutinis įvertinimas|galutinis balas|vertinimas baigtas|nuosprendis\s*:",
    ),
    # Danish
    *_latin(
        scorers=r"bedømmer\w*|censor\w*|eksaminator\w*|vurderingsmodel\w*",
        judges=r"dommer\w*|jury\w*",
        leads=r"kære|til|besked til|note til|bemærk|hej",
        directives=r"skal|bedes|venligst|giv|ignorer|bedøm|sæt",
        gives=r"giv mig|giv os|giv denne deltager|sæt mig|bedøm mig",
        tops=rf"højeste (?:karakter|score|bedømmelse|point)|topkarakter\w*|fuld\w* point|"
        rf"maksimal\w* (?:point|score|karakter)|perfekt\w* (?:score|karakter)|12-tal|et 12-tal|"
        rf"{_TEN}|ti ud af ti",
        ignores=r"ignorer|glem|se bort fra|tilsidesæt",
        orders=r"\w*instruks\w*|\w*instruktion\w*|\w*kriteri\w*|regler\w*|retningslinjer\w*",
        verdicts=r"endelig karakter|endelig score|samlet karakter\s*[:=]|bedømmelsen er færdig|"
        r"bedømmelse afsluttet",
    ),
    # Norwegian (Bokmål and Nynorsk)
    *_latin(
        scorers=r"sensor\w*|bedømmer\w*|vurderar\w*|vurderer\w*|eksaminator\w*",
        judges=r"dommer\w*|jury\w*",
        leads=r"kjære|til|melding til|merknad til|merk|hei",
        directives=r"må|skal|vennligst|ver venleg|gi|ignorer|vurder",
        gives=r"gi meg|gi oss|gje meg|sett meg|gi denne deltakeren",
        tops=rf"høyeste (?:karakter|poengsum|score)|høgaste karakter|toppkarakter\w*|"
        rf"full\w* (?:pott|poeng(?:sum)?|uttelling)|maksimal\w* (?:poeng|score)|en sekser|"
        rf"{_TEN}|ti av ti",
        ignores=r"ignorer|gløym|glem|se bort fra|sjå bort frå|overse",
        orders=r"\w*instruks\w*|\w*kriteri\w*|regler\w*|retningslinjer\w*|reglane",
        verdicts=r"endelig karakter|sluttkarakter|samlet vurdering\s*[:=]|vurderingen er ferdig",
    ),
    # Irish
    *_latin(
        scorers=r"mheasúnóir|measúnóir|scrúdaitheoir|scrúdaitheoirí|ghrádaitheoir|grádaitheoir",
        judges=r"mholtóir|moltóir|moltóirí",
        leads=r"a|a chara|chuig|nóta do|teachtaireacht do|aire",
        directives=r"caithfidh|ní mór|le do thoil|tabhair|déan neamhaird|measúnaigh",
        gives=r"tabhair dom|tabhair dúinn|tugaigí dom|bronn orm",
        tops=rf"(?:na |an )?marcanna? (?:iomlán\w*|uasta|is airde)|an grád is airde|"
        rf"lánmharcanna|{_TEN}|deich as deich",
        ignores=r"déan neamhaird|ná tabhair aird|déanaigí neamhaird|déan dearmad",
        orders=r"treoracha|treoir|critéir|rialacha|na rialacha",
        verdicts=r"marc deiridh|scór deiridh|measúnú críochnaithe|breithiúnas\s*:",
    ),
    # Maltese
    *_latin(
        scorers=r"evalwatur\w*|eżaminatur\w*|korrettur\w*",
        judges=r"imħallef|imħallfin|ġurija",
        leads=r"għażiż|għażiża|għeżież|lill|nota għal|messaġġ għal|attenzjoni",
        directives=r"għandu|għandek|jekk jogħġbok|agħtini|agħti|injora|evalwa",
        gives=r"agħtini|agħtuni|agħtina|agħtuna",
        tops=rf"l-ogħla (?:marka|punteġġ|grad)|marki sħaħ|punteġġ sħiħ|punteġġ massimu|"
        rf"{_TEN}|għaxra minn għaxra",
        ignores=r"injora|injoraw|insa|insew|twarrab",
        orders=r"istruzzjonijiet|kriterji|regoli|linji gwida",
        verdicts=r"punteġġ finali|marka finali|evalwazzjoni lesta|verdett\s*:",
    ),
    # Catalan
    *_latin(
        scorers=r"avaluador\w*|examinador\w*|corrector\w*|qualificador\w*",
        judges=r"jutge\w*|jurat\w*",
        leads=r"benvolgut|benvolguda|estimat|estimada|a l|al|per al|per a la|nota per al|atenció",
        directives=r"ha de|heu de|has de|si us plau|sisplau|dona'm|doneu-me|ignora|ignoreu|"
        r"puntua|qualifica",
        gives=r"dona'm|doneu-me|dóna'm|posa'm|poseu-me|atorga'm|doneu-nos|dona'ns",
        tops=rf"(?:la )?(?:puntuació|nota|qualificació) màxima|(?:la )?màxima (?:puntuació|nota)|"
        rf"un 10\b|matrícula d'honor|{_TEN}|deu sobre deu",
        ignores=r"ignora|ignoreu|oblida|oblideu|no facis cas|no tinguis en compte",
        orders=r"instruccions|criteris|regles|rúbrica|pautes|indicacions",
        verdicts=r"puntuació final|nota final|qualificació final|avaluació completada|"
        r"veredicte\s*:",
    ),
    # Afrikaans
    *_latin(
        scorers=r"beoordelaar\w*|eksaminator\w*|beoordelingsmodel|merker\w*|nasiener\w*",
        judges=r"skeidsregter\w*",
        leads=r"liewe|geagte|aan|aan die|nota aan|boodskap aan|let wel",
        directives=r"moet|asseblief|gee|ignoreer|beoordeel|ken toe",
        gives=r"gee my|gee ons|ken my|gee vir my",
        tops=rf"(?:die )?hoogste (?:punt\w*|telling|graad|assessering)|volpunte|vol punte|"
        rf"maksimum punte|perfekte telling|{_TEN}|tien uit tien",
        ignores=r"ignoreer|vergeet|verontagsaam|steur jou nie aan",
        orders=r"instruksies|kriteria|reëls|riglyne|rubriek",
        verdicts=r"finale punt|finale telling|eindpunt|beoordeling voltooi|uitspraak\s*:",
    ),
    # Tagalog and Filipino
    *_latin(
        scorers=r"tagasuri|tagapagmarka|tagamarka",
        judges=r"tagahatol|hurado|evaluator|grader",
        leads=r"mahal na|minamahal na|kay|para sa|paalala sa|mensahe para sa|sa|po",
        directives=r"dapat|pakiusap|paki|bigyan|ibigay|huwag pansinin|balewalain|markahan",
        gives=r"bigyan mo ako|bigyan ninyo ako|bigyan mo kami|ibigay mo sa akin|bigyan n(?:yo|inyo) "
        r"kami|bigyan mo ang kalahok",
        tops=rf"pinakamataas na (?:marka|iskor|score|grado)|perpektong (?:marka|iskor|score)|"
        rf"buong (?:marka|puntos)|perfect score|full marks|{_TEN}|sampu sa sampu",
        ignores=r"huwag pansinin|balewalain|kalimutan|wag pansinin|huwag sundin",
        orders=r"mga tagubilin|tagubilin|panuto|mga panuntunan|patakaran|pamantayan|instructions",
        verdicts=r"huling marka|pinal na marka|huling iskor|tapos na ang pagsusuri|hatol\s*:",
    ),
    # Javanese and Sundanese
    *_latin(
        scorers=r"penilai|panilai|pamriksa",
        judges=r"juri|hakim",
        leads=r"kagem|kanggo|dhumateng|kangge|kepada|pun|dulur|sadulur",
        directives=r"kudu|kedah|mangga|nyuwun|wenehana|paringana|aja digatekake|ulah",
        gives=r"wenehana aku|paringana kula|wenehi aku|pasihan abdi|bikeun abdi|kasih aku",
        tops=rf"biji (?:sampurna|paling dhuwur|maksimal)|nilai (?:sampurna|paling dhuwur|"
        rf"pangluhurna|maksimal)|peunteun (?:sampurna|pangluhurna)|{_TEN}",
        ignores=r"aja digatekake|ora usah digatekake|lalekna|ulah dipalire|teu kudu dituturkeun",
        orders=r"pitunjuk|aturan|pranatan|kritéria|kriteria|parentah|paréntah|pituduh",
        verdicts=r"biji pungkasan|nilai pungkasan|peunteun ahir|penilaian rampung|putusan\s*:",
    ),
    # Malay
    *_latin(
        scorers=r"penilai|pemarkah",
        judges=r"pemeriksa|hakim|juri|pengadil",
        leads=r"kepada|yang dihormati|tuan|puan|nota untuk|mesej untuk|perhatian",
        directives=r"mesti|perlu|sila|tolong|beri|berikan|abaikan|nilaikan",
        gives=r"beri saya|berikan saya|bagi saya|beri kami|berikan kami|bagi kami",
        tops=rf"markah (?:penuh|tertinggi|maksimum|sempurna)|skor (?:penuh|tertinggi|"
        rf"sempurna|maksimum)|gred (?:tertinggi|a\+)|{_TEN}|sepuluh daripada sepuluh",
        ignores=r"abaikan|lupakan|jangan hiraukan|jangan ikut",
        orders=r"arahan|kriteria|peraturan|garis panduan|rubrik",
        verdicts=r"markah akhir|skor akhir|penilaian selesai|keputusan muktamad|keputusan\s*:",
    ),
    # Hausa
    *_latin(
        scorers=r"mai tantancewa|masu tantancewa|mai bada maki|mai ba da maki",
        judges=r"alkali|alƙali|alkalai|alƙalai|mai yin hukunci",
        leads=r"ya|zuwa ga|ga|sako ga|saƙo ga|masoyi|mai girma",
        directives=r"dole|don allah|ka ba|ki ba|ba ni|ka yi watsi|kar ka bi",
        gives=r"ba ni|ka ba ni|ki ba ni|ku ba ni|ku ba mu|ba mu",
        tops=rf"maki mafi girma|cikakken maki|maki (?:duka|cikakke|goma)|{_TEN}|goma cikin goma",
        ignores=r"yi watsi da|ka yi watsi da|manta da|kar ka kula da|kada ka bi",
        orders=r"umarni|umarnai|ka'idoji|ƙa'idoji|sharudda|sharuɗɗa|dokoki",
        verdicts=r"maki na karshe|maki na ƙarshe|sakamakon karshe|sakamakon ƙarshe|"
        r"an kammala tantancewa|hukunci\s*:",
    ),
    # Yoruba
    *_latin(
        scorers=r"oluyẹwo|oluyewo|oluṣayẹwo|olusayewo|olùdánwò|oludanwo",
        judges=r"adajọ|adajo|onidajọ|onidajo",
        leads=r"ẹyin|eyin|si|fun|akiyesi fun|ọwọ|owo|olufẹ|olufe",
        directives=r"gbọdọ|gbodo|jọwọ|jowo|fun mi|foju fo|maṣe tẹle|mase tele",
        gives=r"fun mi|fun wa|fún mi|fún wa",
        tops=rf"maaki (?:to ga ju|pipe|kikun)|ami (?:to ga ju|pipe|kikun)|maaki ti o ga julọ|"
        rf"maaki ti o ga julo|{_TEN}|mẹwa ninu mẹwa|mewa ninu mewa",
        ignores=r"foju fo|fojufo|maṣe tẹle|mase tele|gbagbe|maṣe kọbiara si",
        orders=r"itọnisọna|itonisona|ilana|awọn ofin|awon ofin|ofin",
        verdicts=r"maaki ikẹhin|maaki ikehin|abajade ikẹhin|abajade ikehin|idajọ\s*:|idajo\s*:",
    ),
    # Igbo
    *_latin(
        scorers=r"onye nyocha|ndị nyocha|ndi nyocha|onye na-enye akara",
        judges=r"onye ikpe|onye ọka ikpe|onye oka ikpe",
        leads=r"ezigbo|nye|maka|ozi maka|rịba ama|riba ama|nna m|nne m",
        directives=r"ga-|biko|nye m|nye anyị|leghara|echefula",
        gives=r"nye m|nye anyị|nye anyi|nyere m",
        tops=rf"akara (?:kachasị elu|kachasi elu|zuru oke|niile)|akara iri|{_TEN}|iri n'ime iri",
        ignores=r"leghara|legharanụ|legharanu|chefuo|echefula|ahapụ|ahapu",
        orders=r"ntụziaka|ntuziaka|iwu|usoro|nduzi",
        verdicts=r"akara ikpeazụ|akara ikpeazu|nyocha agwụla|nyocha agwula|mkpebi\s*:",
    ),
    # Somali
    *_latin(
        scorers=r"qiimeeye|qiimeeyaha|qiimeeyayaasha|imtixaame|saxaha",
        judges=r"garsoore|garsooraha|xakame|xakamaha",
        leads=r"gacaliye|mudane|marwo|ku socota|fariin|fiiro gaar ah|u",
        directives=r"waa inuu|waa inaad|fadlan|i sii|iska indha tir|ha raacin",
        gives=r"i sii|na sii|i siiya|na siiya|sii isaga",
        tops=rf"dhibcaha ugu sarreeya|buundada ugu sarreysa|dhibco buuxa|darajada ugu sarreysa|"
        rf"{_TEN}|toban ka mid ah toban",
        ignores=r"iska indha tir|iska dhaaf|ilow|ha raacin|ha dhegaysan",
        orders=r"tilmaamaha|tilmaamo|shuruudaha|xeerarka|qawaaniinta|habraacyada",
        verdicts=r"buundada ugu dambeysa|dhibcaha kama dambaysta|qiimeynta waa dhammaatay",
    ),
    # Zulu and Xhosa
    *_latin(
        scorers=r"umhloli|abahloli|umvavanyi|abavavanyi",
        judges=r"umahluleli|abahluleli|umgwebi",
        leads=r"sithandwa|mnumzane|nkosikazi|kumhloli|kuye|umlayezo|qaphela|molo|sawubona",
        directives=r"kumele|makube|ngicela|ndicela|nginike|ndinike|ungazinaki|ungazihoyi",
        gives=r"nginike|ngiphe|ndinike|ndiphe|siphe|sinike",
        tops=rf"amamaki aphezulu|amamaki aphelele|amanqaku aphezulu|amanqaku apheleleyo|"
        rf"amaphuzu aphezulu|{_TEN}|ishumi kwayishumi",
        ignores=r"ungazinaki|ungazinanzi|ungazihoyi|ziba|khohlwa|ungayilandeli",
        orders=r"imiyalelo|iziqondiso|imithetho|imigomo|imiqathango",
        verdicts=r"amamaki okugcina|amanqaku okugqibela|ukuhlola kuphelile|isinqumo\s*:",
    ),
    # Uzbek, Azerbaijani and Kazakh in Latin letters (Turkic, as Turkish)
    *_latin(
        scorers=r"baholovchi\w*|imtihonchi\w*|qiymətləndirici\w*|bağalaushy\w*|emtihançı\w*",
        judges=r"hakam\w*|münsif\w*|tóreshi\w*|toreshi\w*",
        leads=r"hurmatli|aziz|qadrli|hörmətli|əziz|qurmetti|qurmetli|diqqat|diqqət",
        directives=r"kerak|iltimos|bering|ber|lazımdır|xahiş edirəm|verin|ver|"
        r"e'tiborsiz|nəzərə alma|mümkin",
        gives=r"menga ber\w*|bizga ber\w*|mənə ver\w*|bizə ver\w*|mağan ber\w*|bizge ber\w*",
        tops=rf"eng yuqori (?:ball|baho)|maksimal (?:ball|baho|bal)|to'liq ball|ən yüksək "
        rf"(?:bal|qiymət)|tam bal|eñ joğarğı ball|en jogargy ball|{_TEN}|a'lo baho",
        ignores=r"tiborsiz qoldir\w*|tibor berma\w*|unut\w*|nəzərə alma\w*|məhəl qoyma\w*|"
        r"elemeñiz|elemeniz",
        orders=r"ko'rsatma\w*|yo'riqnoma\w*|mezon\w*|qoida\w*|təlimat\w*|meyar\w*|qayda\w*|"
        r"nusqaulyq\w*",
        verdicts=r"yakuniy ball|yakuniy baho|yekun bal|yekun qiymət|qorytyndy bağa|"
        r"baholash yakunlandi|hükm\s*:|hukm\s*:",
    ),
    # Albanian
    *_latin(
        scorers=r"vlerësues\w*|ekzaminues\w*|korrigjues\w*",
        judges=r"gjyqtar\w*|juri\w*",
        leads=r"i dashur|e dashur|të nderuar|i nderuar|e nderuar|për|shënim për|mesazh për",
        directives=r"duhet|të lutem|ju lutem|më jep|jepni|injoro|injoroni|vlerëso",
        gives=r"më jep|më jepni|na jep|na jepni|më vlerëso",
        tops=rf"notë\w* (?:maksimale|më të lartë)|pikë\w* (?:maksimale|të plota)|dhjetë\w*|"
        rf"nota 10|{_TEN}|dhjetë nga dhjetë",
        ignores=r"injoro|injoroni|harro|harroni|mos merr parasysh",
        orders=r"udhëzime\w*|kritere\w*|rregull\w*|udhëzimet",
        verdicts=r"nota përfundimtare|rezultati përfundimtar|vlerësimi përfundoi|vendim\s*:",
    ),
    # Icelandic
    *_latin(
        scorers=r"matsmað\w*|prófdómar\w*|yfirfarand\w*",
        judges=r"dómar\w*",
        leads=r"kæri|kæra|kæru|til|athugið|skilaboð til|ath",
        directives=r"verður|skal|vinsamlegast|gefðu|hunsaðu|metið",
        gives=r"gefðu mér|gefið mér|gefðu okkur|gefið okkur",
        tops=rf"hæst\w* (?:einkunn\w*|stig\w*)|fullt hús stiga|full\w* stig|tíu af tíu|{_TEN}",
        ignores=r"hunsaðu|hunsið|gleymdu|gleymið|líttu framhjá",
        orders=r"leiðbeining\w*|fyrirmæl\w*|viðmið\w*|regl\w*",
        verdicts=r"lokaeinkunn|endanleg einkunn|mati lokið|úrskurður\s*:",
    ),
    # Hindi and Urdu in Latin letters (as typed in chat)
    *_latin(
        scorers=r"parikshak\w*|mulyankan ?karta|moolyankan ?karta|evaluator (?:ji|sahab|sahib)|"
        r"grader (?:ji|sahab|sahib)",
        judges=r"nirnayak\w*|jaj sahab|judge sahab",
        leads=r"priya|aadarniya|adarniya|janab|jnab|mohtaram|dhyan dein|ke liye",
        directives=r"zaroor|zarur|kripya|meharbani|dijiye|de do|de dena|karna hoga",
        gives=r"mujhe|humein|hume|hamein|mujhko|is participant ko",
        tops=rf"(?:poore|pure|poora|pura|full|sabse (?:zyada|jyada|ucha|uncha)) (?:number|"
        rf"marks|ank|ankh|score|rating) (?:do|de do|dijiye|dena|dein)|{_TEN} (?:do|de do|"
        rf"dijiye|dena)|das mein se das",
        ignores=r"nirdesh\w*|hidayat\w*|niyam\w*",
        orders=r"(?:ignore|nazarandaz|anadekha) kar(?:o|na|ein|iye|en|do)",
        verdicts=r"antim (?:score|ank|nirnay)\s*[:=]|final faisla\s*:|aakhri faisla\s*:|"
        r"mulyankan (?:poora|pura) hua",
    ),
    # Japanese in Latin letters (romaji)
    *_latin(
        scorers=r"saitensha|hyokasha|hyoukasha|shinsain|shinsa-in|shinsaiin",
        judges=r"jajji",
        leads=r"sama|san|e|he|kakui|no kata",
        directives=r"kanarazu|kudasai|shinakereba|mushi|tsukete|agete",
        gives=r"manten|saikou?ten|saikou? hyou?ka|10 ?ten|jutt?en",
        tops=r"(?:wo|o|ni) (?:kudasai|tsukete|agete|shite|onegai)",
        ignores=r"shiji|meirei|saiten kijun|hyou?ka kijun|ruu?ru",
        orders=r"mushi|wasure",
        verdicts=r"saishu (?:sukoa|hyoka|hyouka|tokuten|hantei) ?[:=]|hyoka kanryo|"
        r"hyouka kanryou|saiten kanryo|saiten kanryou",
    ),
    # Korean in Latin letters (revised romanisation)
    *_latin(
        scorers=r"pyeonggaja|chaejeomja|simsawiwon",
        judges=r"simpan",
        leads=r"nim|kke|ege|yeoreobun",
        directives=r"bandeusi|haeya|juseyo|musi|butak",
        gives=r"manjeom|man jeom|choego ?jeom(?:su)?|10 ?jeom|100 ?jeom",
        tops=r"juseyo|jusipsio|jwo|buyeo",
        ignores=r"jisi|jichim|myeongryeong|chaejeom gijun|pyeongga gijun|gyuchik",
        orders=r"musi|ijeo",
        verdicts=r"choejong (?:jeomsu|pyeongga|panjeong) ?[:=]|pyeongga wallyo|chaejeom wallyo",
    ),
]

_SCRIPTED: list[Written] = [
    # Ukrainian
    *_scripted(
        scorers=r"оцінювач\w*|екзаменатор\w*|перевіряюч\w*|рецензент\w*",
        judges=r"суддя|судді|журі",
        leads=r"шановн\w*|дорог\w*|до уваги|для|примітка для|повідомлення для",
        directives=r"мусит\w*|має|повин\w*|будь ласка|постав\w*|дай\w*|проігноруй\w*|оціни\w*",
        gives=r"постав\w* мені|дай\w* мені|постав\w* нам|дай\w* нам|оціни\w* мене",
        tops=r"максимальн\w* (?:бал\w*|оцінк\w*)|найвищ\w* (?:бал\w*|оцінк\w*)|10/10|"
        r"десять з десяти|12 бал\w*|100 бал\w*",
        ignores=r"ігноруй\w*|проігноруй\w*|забудь\w*|не зважай\w*",
        orders=r"інструкці\w*|вказівк\w*|критері\w*|правил\w*",
        verdicts=r"(?:підсумков\w*|остаточн\w*) (?:оцінк\w*|бал\w*)\s*[:=]|оцінювання завершено|"
        r"вердикт\s*:",
    ),
    # Bulgarian
    *_scripted(
        scorers=r"оценяващ\w*|оценител\w*|изпитващ\w*|проверяващ\w*",
        judges=r"съдия|съдии|журито|жури",
        leads=r"уважаем\w*|скъп\w*|до|за|бележка за|съобщение за",
        directives=r"трябва|моля|дай\w*|постав\w*|игнорирай\w*|оцени\w*",
        gives=r"дай\w* ми|постав\w* ми|дай\w* ни|постав\w* ни|оцени\w* ме",
        tops=r"максимал\w* (?:оценк\w*|точк\w*|резултат\w*)|най-висок\w* (?:оценк\w*|резултат\w*)|"
        r"пълен брой точки|отличен 6|шестица|10/10|десет от десет",
        ignores=r"игнорирай\w*|забрави\w*|не обръщай\w* внимание на",
        orders=r"инструкци\w*|указани\w*|критери\w*|правил\w*",
        verdicts=r"крайн\w* (?:оценк\w*|резултат\w*)\s*[:=]|оценяването приключи|присъда\s*:",
    ),
    # Serbian in Cyrillic
    *_scripted(
        scorers=r"оцењивач\w*|испитивач\w*|евалуатор\w*",
        judges=r"судија|судије|жири",
        leads=r"драги|драга|поштовани|поштована|за|напомена за|порука за",
        directives=r"мора\w*|молим|дај\w*|игнориши\w*|оцени\w*|додели\w*",
        gives=r"дај\w* ми|дај\w* нам|додели\w* ми|оцени\w* ме",
        tops=r"највиш\w* (?:оцен\w*|бодов\w*)|максималн\w* (?:оцен\w*|бодов\w*|број бодова)|"
        r"чисту петицу|10/10|десет од десет",
        ignores=r"игнориши\w*|занемари\w*|заборави\w*",
        orders=r"упутств\w*|инструкциј\w*|критеријум\w*|правил\w*",
        verdicts=r"коначна оцена|укупна оцена\s*[:=]|оцењивање завршено|пресуда\s*:",
    ),
    # Kazakh in Cyrillic
    *_scripted(
        scorers=r"бағалаушы\w*|емтихан алушы\w*",
        judges=r"төреші\w*|сарапшы\w*|қазылар\w*",
        leads=r"құрметті|қымбатты|назарына|үшін|хабарлама",
        directives=r"тиіс|керек|өтінемін|беріңіз|бер|елеме\w*|бағала\w*",
        gives=r"маған бер\w*|бізге бер\w*|маған қой\w*",
        tops=r"ең жоғары (?:балл\w*|баға\w*)|максималды (?:балл\w*|баға\w*)|толық балл\w*|"
        r"10/10|оннан он",
        ignores=r"елеме\w*|ескерме\w*|ұмыт\w*",
        orders=r"нұсқаулық\w*|нұсқау\w*|критерий\w*|ереже\w*",
        verdicts=r"қорытынды (?:балл\w*|баға\w*)\s*[:=]|бағалау аяқталды|үкім\s*:",
    ),
    # Persian
    *_scripted(
        scorers=r"ارزیاب|ارزیابی کننده|ممتحن|مصحح|نمره دهنده",
        judges=r"داور|داوران|بررسی کننده",
        leads=r"جناب|سرکار|گرامی|عزیز|خطاب به|یادداشت برای|پیام برای|توجه",
        directives=r"باید|لطفا|لطفاً|بدهید|بده|نادیده بگیر|در نظر نگیر",
        gives=r"به من|به ما|به این شرکت کننده",
        tops=r"نمره (?:کامل|کامل را|بالاترین|حداکثر|بیست)|بالاترین نمره|حداکثر نمره|"
        r"امتیاز (?:کامل|حداکثر)|بیست از بیست|10/10|20/20|ده از ده",
        ignores=r"نادیده بگیر\w*|فراموش کن\w*|توجه نکن\w*|اعتنا نکن\w*",
        orders=r"دستورالعمل\w*|دستورات|دستور|معیار\w*|قوانین|ضوابط|راهنما\w*",
        verdicts=r"نمره نهایی\s*[:=]|امتیاز نهایی\s*[:=]|ارزیابی (?:تمام|کامل) شد|حکم نهایی\s*:",
    ),
    # Urdu
    *_scripted(
        scorers=r"ممتحن|جانچ کرنے والے|جانچنے والے|گریڈر|نمبر دینے والے",
        judges=r"منصف|جج|مبصر",
        leads=r"محترم|عزیز|جناب|نوٹ|پیغام|توجہ",
        directives=r"ضرور|لازمی|براہ کرم|برائے مہربانی|دیں|دیجیے|نظرانداز",
        gives=r"مجھے|ہمیں|اس شرکت کنندہ کو",
        tops=r"(?:پورے|مکمل|سب سے زیادہ|زیادہ سے زیادہ) (?:نمبر|مارکس|اسکور|درجہ)|10/10|"
        r"دس میں سے دس",
        ignores=r"نظرانداز کر\w*|نظر انداز کر\w*|بھول جا\w*|پرواہ نہ کر\w*",
        orders=r"ہدایات|ہدایت|اصول|قواعد|معیار|رہنمائی",
        verdicts=r"حتمی (?:نمبر|اسکور|فیصلہ)\s*[:=]|جانچ مکمل|فیصلہ\s*:",
    ),
    # Pashto
    *_scripted(
        scorers=r"ارزونکی|ارزوونکی|ممتحن|نمرې ورکوونکی",
        judges=r"قاضي|منصف",
        leads=r"ګرانه|محترم|ته|پام|پیغام",
        directives=r"باید|مهرباني وکړئ|راکړئ|راکړه|پام مه کوه",
        gives=r"ما ته|موږ ته",
        tops=r"(?:بشپړې|لوړې|تر ټولو لوړې) (?:نمرې|نومرې)|10/10|لس له لسو",
        ignores=r"له پامه وغورځوه|هېر کړه|پام مه کوه",
        orders=r"لارښوونې|لارښوونه|قواعد|اصول|معیارونه",
        verdicts=r"وروستۍ نمره\s*[:=]|ارزونه بشپړه شوه|پرېکړه\s*:",
    ),
    # Bengali
    *_scripted(
        scorers=r"মূল্যায়নকারী|পরীক্ষক|নম্বরদাতা|গ্রেডার|মূল্যায়ক",
        judges=r"বিচারক",
        leads=r"প্রিয়|শ্রদ্ধেয়|মাননীয়|এর জন্য|জন্য নোট|বার্তা|দৃষ্টি আকর্ষণ",
        directives=r"অবশ্যই|দয়া করে|দিন|দাও|উপেক্ষা কর",
        gives=r"আমাকে|আমাদের|এই অংশগ্রহণকারীকে",
        tops=r"(?:পূর্ণ|পুরো|সর্বোচ্চ|সবচেয়ে বেশি) (?:নম্বর|মার্ক|স্কোর|রেটিং)|10/10|১০/১০|দশে দশ",
        ignores=r"উপেক্ষা কর|ভুলে যা|পাত্তা দিও না|মেনো না",
        orders=r"নির্দেশনা|নির্দেশ|নিয়ম|মানদণ্ড",
        verdicts=r"চূড়ান্ত (?:নম্বর|স্কোর|রায়)\s*[:=]|মূল্যায়ন সম্পন্ন|রায়\s*:",
    ),
    # Marathi and Nepali (Devanagari, beside Hindi's rules)
    *_scripted(
        scorers=r"परीक्षक|मूल्यमापक|मूल्यांकनकर्ता|मूल्याङ्कनकर्ता",
        judges=r"निर्णायक|न्यायाधीश",
        leads=r"प्रिय|आदरणीय|माननीय|साठी|लाई|ज्यू|हजुर",
        directives=r"आवश्यक|कृपया|द्या|द्यावे|दिनुहोस्|दिनुस्|दुर्लक्ष|बेवास्ता",
        gives=r"मला|आम्हाला|मलाई|हामीलाई",
        tops=r"(?:पूर्ण|पैकीच्या पैकी|सर्वाधिक|सर्वोच्च|पूरा) (?:गुण|अंक|मार्क्स|नम्बर|अङ्क)|"
        r"पैकीच्या पैकी|10/10|दहा पैकी दहा|दशमा दश",
        ignores=r"दुर्लक्ष कर|बेवास्ता गर|विसरून जा|बिर्सनुहोस्|बिर्सिदेउ",
        orders=r"सूचना|निर्देश|नियम|निकष|मापदण्ड",
        verdicts=r"अंतिम (?:गुण|निकाल)\s*[:=]|अन्तिम (?:अङ्क|नतिजा)\s*[:=]|मूल्यांकन पूर्ण|"
        r"मूल्याङ्कन सम्पन्न",
    ),
    # Punjabi (Gurmukhi)
    *_scripted(
        scorers=r"ਮੁਲਾਂਕਣਕਾਰ|ਪਰੀਖਿਅਕ|ਜਾਂਚਕਰਤਾ",
        judges=r"ਜੱਜ|ਨਿਰਣਾਇਕ",
        leads=r"ਪਿਆਰੇ|ਸਤਿਕਾਰਯੋਗ|ਮਾਣਯੋਗ|ਲਈ|ਨੋਟ|ਸੁਨੇਹਾ",
        directives=r"ਜ਼ਰੂਰ|ਜਰੂਰ|ਕਿਰਪਾ ਕਰਕੇ|ਦਿਓ|ਦੇ ਦਿਓ|ਅਣਡਿੱਠ",
        gives=r"ਮੈਨੂੰ|ਸਾਨੂੰ",
        tops=r"(?:ਪੂਰੇ|ਸਭ ਤੋਂ ਵੱਧ|ਵੱਧ ਤੋਂ ਵੱਧ) (?:ਅੰਕ|ਨੰਬਰ|ਸਕੋਰ)|10/10|ਦਸ ਵਿੱਚੋਂ ਦਸ",
        ignores=r"ਅਣਡਿੱਠ|ਨਜ਼ਰਅੰਦਾਜ਼|ਭੁੱਲ ਜਾ",
        orders=r"ਹਦਾਇਤਾਂ|ਹਦਾਇਤ|ਨਿਯਮ|ਮਾਪਦੰਡ",
        verdicts=r"ਅੰਤਿਮ (?:ਅੰਕ|ਸਕੋਰ|ਫੈਸਲਾ)\s*[:=]|ਮੁਲਾਂਕਣ ਪੂਰਾ",
    ),
    # Gujarati
    *_scripted(
        scorers=r"મૂલ્યાંકનકર્તા|પરીક્ષક|ગુણ આપનાર",
        judges=r"નિર્ણાયક|જજ",
        leads=r"પ્રિય|આદરણીય|માનનીય|માટે|નોંધ|સંદેશ",
        directives=r"જ જોઈએ|કૃપા કરીને|આપો|આપજો|અવગણો",
        gives=r"મને|અમને",
        tops=r"(?:પૂરા|પૂર્ણ|સૌથી વધુ|મહત્તમ) (?:ગુણ|માર્ક્સ|સ્કોર)|10/10|દસમાંથી દસ",
        ignores=r"અવગણો|અવગણના કર|ભૂલી જા",
        orders=r"સૂચનાઓ|સૂચના|નિયમો|નિયમ|માપદંડ",
        verdicts=r"અંતિમ (?:ગુણ|સ્કોર|નિર્ણય)\s*[:=]|મૂલ્યાંકન પૂર્ણ",
    ),
    # Tamil
    *_scripted(
        scorers=r"மதிப்பீட்டாளர்|மதிப்பெண் வழங்குபவர்|தேர்வாளர்",
        judges=r"நடுவர்|நீதிபதி",
        leads=r"அன்புள்ள|மதிப்பிற்குரிய|மாண்புமிகு|க்கு|குறிப்பு|செய்தி",
        directives=r"வேண்டும்|தயவுசெய்து|கொடுங்கள்|தாருங்கள்|புறக்கணி",
        gives=r"எனக்கு|எங்களுக்கு",
        tops=r"(?:முழு|அதிகபட்ச|உயர்ந்த) (?:மதிப்பெண்|புள்ளி)|10/10|பத்துக்குப் பத்து",
        ignores=r"புறக்கணி|மறந்துவிடு|பொருட்படுத்தாதே",
        orders=r"அறிவுறுத்தல்|வழிமுறை|விதிகள்|விதி|அளவுகோல்",
        verdicts=r"இறுதி (?:மதிப்பெண்|தீர்ப்பு)\s*[:=]|மதிப்பீடு முடிந்தது|தீர்ப்பு\s*:",
    ),
    # Telugu
    *_scripted(
        scorers=r"మూల్యాంకనకర్త|పరీక్షకుడు|మార్కులు ఇచ్చేవారు",
        judges=r"న్యాయనిర్ణేత|జడ్జి",
        leads=r"ప్రియమైన|గౌరవనీయ|కోసం|గమనిక|సందేశం",
        directives=r"తప్పక|దయచేసి|ఇవ్వండి|ఇవ్వు|పట్టించుకోవద్దు",
        gives=r"నాకు|మాకు",
        tops=r"(?:పూర్తి|గరిష్ట|అత్యధిక) (?:మార్కులు|స్కోరు)|10/10|పదికి పది",
        ignores=r"పట్టించుకోవద్దు|విస్మరించు|మర్చిపో",
        orders=r"సూచనలు|నియమాలు|ప్రమాణాలు|నిబంధనలు",
        verdicts=r"తుది (?:మార్కులు|స్కోరు|తీర్పు)\s*[:=]|మూల్యాంకనం పూర్తైంది|తీర్పు\s*:",
    ),
    # Kannada
    *_scripted(
        scorers=r"ಮೌಲ್ಯಮಾಪಕ|ಪರೀಕ್ಷಕ",
        judges=r"ತೀರ್ಪುಗಾರ|ನ್ಯಾಯಾಧೀಶ",
        leads=r"ಪ್ರಿಯ|ಗೌರವಾನ್ವಿತ|ಮಾನ್ಯ|ಗೆ|ಸೂಚನೆ|ಸಂದೇಶ",
        directives=r"ಬೇಕು|ದಯವಿಟ್ಟು|ಕೊಡಿ|ನೀಡಿ|ನಿರ್ಲಕ್ಷಿಸಿ",
        gives=r"ನನಗೆ|ನಮಗೆ",
        tops=r"(?:ಪೂರ್ಣ|ಗರಿಷ್ಠ|ಅತ್ಯಧಿಕ) (?:ಅಂಕ|ಅಂಕಗಳು|ಸ್ಕೋರ್)|10/10|ಹತ್ತಕ್ಕೆ ಹತ್ತು",
        ignores=r"ನಿರ್ಲಕ್ಷಿಸಿ|ಮರೆತುಬಿಡಿ|ಕಡೆಗಣಿಸಿ",
        orders=r"ಸೂಚನೆಗಳು|ನಿಯಮಗಳು|ಮಾನದಂಡ",
        verdicts=r"ಅಂತಿಮ (?:ಅಂಕ|ಸ್ಕೋರ್|ತೀರ್ಪು)\s*[:=]|ಮೌಲ್ಯಮಾಪನ ಪೂರ್ಣ",
    ),
    # Malayalam
    *_scripted(
        scorers=r"മൂല്യനിർണ്ണയം നടത്തുന്നയാൾ|മൂല്യനിർണയക്കാരൻ|പരീക്ഷകൻ",
        judges=r"വിധികർത്താവ്|ജഡ്ജി",
        leads=r"പ്രിയ|ബഹുമാനപ്പെട്ട|ന്|ക്ക്|കുറിപ്പ്|സന്ദേശം",
        directives=r"വേണം|ദയവായി|തരൂ|നൽകൂ|അവഗണിക്കുക",
        gives=r"എനിക്ക്|ഞങ്ങൾക്ക്",
        tops=r"(?:മുഴുവൻ|പരമാവധി|ഏറ്റവും ഉയർന്ന) (?:മാർക്ക്|സ്കോർ)|10/10|പത്തിൽ പത്ത്",
        ignores=r"അവഗണിക്കുക|മറക്കുക|ശ്രദ്ധിക്കേണ്ട",
        orders=r"നിർദ്ദേശങ്ങൾ|നിയമങ്ങൾ|മാനദണ്ഡ",
        verdicts=r"അന്തിമ (?:മാർക്ക്|സ്കോർ|വിധി)\s*[:=]|മൂല്യനിർണ്ണയം പൂർത്തിയായി",
    ),
    # Sinhala
    *_scripted(
        scorers=r"ඇගයීම්කරු|පරීක්ෂක",
        judges=r"විනිශ්චයකරු|විනිසුරු",
        leads=r"හිතවත්|ගරු|සඳහා|වෙත|සටහන|පණිවිඩය",
        directives=r"යුතුයි|කරුණාකර|දෙන්න|නොසලකා හරින්න",
        gives=r"මට|අපට",
        tops=r"(?:සම්පූර්ණ|උපරිම|ඉහළම) (?:ලකුණු|ලකුණ)|10/10|දහයෙන් දහය",
        ignores=r"නොසලකා හරින්න|අමතක කරන්න",
        orders=r"උපදෙස්|නීති|නිර්ණායක",
        verdicts=r"අවසාන (?:ලකුණු|තීන්දුව)\s*[:=]|ඇගයීම අවසන්",
    ),
    # Thai
    *_scripted(
        scorers=r"ผู้ประเมิน|ผู้ให้คะแนน|ผู้ตรวจ",
        judges=r"กรรมการ|ผู้ตัดสิน",
        leads=r"เรียน|ถึง|ท่าน|คุณ|ข้อความถึง|หมายเหตุถึง",
        directives=r"ต้อง|กรุณา|โปรด|เพิกเฉย",
        gives=r"ให้ฉัน|ให้ผม|ให้เรา|ให้หนู|ให้ดิฉัน",
        tops=r"คะแนนเต็ม|คะแนนสูงสุด|เต็มสิบ|10/10|สิบเต็มสิบ|คะแนนสูงที่สุด",
        ignores=r"เพิกเฉย|ไม่ต้องสนใจ|ลืม|ละเว้น|ไม่ต้องทำตาม",
        orders=r"คำสั่ง|คำแนะนำ|เกณฑ์|กฎ",
        verdicts=r"คะแนนสุดท้าย\s*[:=]|ผลการประเมินขั้นสุดท้าย|การประเมินเสร็จสิ้น|คำตัดสิน\s*:",
        glued=True,
    ),
    # Lao
    *_scripted(
        scorers=r"ຜູ້ປະເມີນ|ຜູ້ໃຫ້ຄະແນນ",
        judges=r"ກຳມະການ|ຜູ້ຕັດສິນ",
        leads=r"ຮຽນ|ເຖິງ|ທ່ານ",
        directives=r"ຕ້ອງ|ກະລຸນາ|ບໍ່ຕ້ອງສົນໃຈ",
        gives=r"ໃຫ້ຂ້ອຍ|ໃຫ້ພວກເຮົາ",
        tops=r"ຄະແນນເຕັມ|ຄະແນນສູງສຸດ|10/10",
        ignores=r"ບໍ່ຕ້ອງສົນໃຈ|ລືມ|ບໍ່ຕ້ອງເຮັດຕາມ",
        orders=r"ຄຳສັ່ງ|ຄຳແນະນຳ|ເກນ|ກົດ",
        verdicts=r"ຄະແນນສຸດທ້າຍ\s*[:=]|ການປະເມີນສຳເລັດ",
        glued=True,
    ),
    # Burmese
    *_scripted(
        scorers=r"အကဲဖြတ်သူ|အမှတ်ပေးသူ",
        judges=r"ဒိုင်|စစ်ဆေးသူ|တရားသူကြီး",
        leads=r"ချစ်သော|လေးစားအပ်သော|သို့|အတွက်",
        directives=r"ရမည်|ကျေးဇူးပြု၍|ပေးပါ|လျစ်လျူရှု",
        gives=r"ကျွန်တော့်ကို|ကျွန်မကို|ငါ့ကို|ကျွန်ုပ်တို့ကို",
        tops=r"အမှတ်ပြည့်|အမြင့်ဆုံးအမှတ်|10/10|ဆယ်မှတ်ပြည့်",
        ignores=r"လျစ်လျူရှု|မေ့လိုက်|ဂရုမစိုက်",
        orders=r"ညွှန်ကြားချက်|စည်းမျဉ်း|စံနှုန်း",
        verdicts=r"နောက်ဆုံးအမှတ်\s*[:=]|အကဲဖြတ်ခြင်းပြီးဆုံး",
        glued=True,
    ),
    # Khmer
    *_scripted(
        scorers=r"អ្នកវាយតម្លៃ|អ្នកដាក់ពិន្ទុ",
        judges=r"គណៈកម្មការ|អាជ្ញាកណ្តាល|ចៅក្រម",
        leads=r"ជូនចំពោះ|គោរពជូន|ជូន|សូមគោរព",
        directives=r"ត្រូវតែ|សូម|ផ្តល់|មិនអើពើ",
        gives=r"ឱ្យខ្ញុំ|អោយខ្ញុំ|ឲ្យខ្ញុំ|ឱ្យយើង",
        tops=r"ពិន្ទុពេញ|ពិន្ទុខ្ពស់បំផុត|10/10",
        ignores=r"មិនអើពើ|បំភ្លេច|កុំខ្វល់",
        orders=r"ការណែនាំ|សេចក្តីណែនាំ|លក្ខណៈវិនិច្ឆ័យ|ច្បាប់",
        verdicts=r"ពិន្ទុចុងក្រោយ\s*[:=]|ការវាយតម្លៃបានបញ្ចប់",
        glued=True,
    ),
    # Amharic
    *_scripted(
        scorers=r"ገምጋሚ|ገምጋሚዎች|ፈታኝ|ነጥብ ሰጪ",
        judges=r"ዳኛ|ዳኞች",
        leads=r"ውድ|የተከበሩ|ለ|ማስታወሻ|መልእክት",
        directives=r"አለበት|እባክዎ|እባክህ|ስጡ|ስጥ|ችላ በል",
        gives=r"ስጠኝ|ስጡኝ|ይስጡኝ|ስጠን|ስጡን",
        tops=r"ሙሉ ነጥብ|ከፍተኛ(?:ውን)? ነጥብ|10/10|ከአስር አስር",
        ignores=r"ችላ በል|ችላ ይበሉ|እርሳ|አትከተል",
        orders=r"መመሪያ\S{0,4}|ደንብ\S{0,4}|መስፈርት\S{0,4}|ህግ\S{0,4}",
        verdicts=r"የመጨረሻ ነጥብ\s*[:=]|ግምገማው ተጠናቋል|ውሳኔ\s*:",
    ),
    # Georgian
    *_scripted(
        scorers=r"შემფასებ\S{0,6}|გამომცდ\S{0,6}",
        judges=r"მსაჯ\S{0,4}|ჟიური|მოსამართლ\S{0,4}",
        leads=r"ძვირფასო|პატივცემულო|ბატონო|ქალბატონო|შენიშვნა|შეტყობინება",
        directives=r"უნდა|გთხოვთ|მომეცი|მომეცით|დააიგნორე|უგულებელყავი",
        gives=r"მომეცი|მომეცით|მოგვეცი|მოგვეცით|დამიწერე",
        tops=r"მაქსიმალურ\S{0,4} (?:ქულ\S{0,3}|შეფასებ\S{0,3})|უმაღლეს\S{0,3} (?:ქულ\S{0,3}|"
        r"შეფასებ\S{0,3})|სრულ\S{0,3} ქულ\S{0,3}|10/10|ათიდან ათი",
        ignores=r"დააიგნორე|უგულებელყავი|დაივიწყე|ნუ მიაქცევ",
        orders=r"ინსტრუქცი\S{0,4}|მითითებ\S{0,4}|კრიტერიუმ\S{0,4}|წესებ\S{0,4}",
        verdicts=r"საბოლოო (?:ქულა|შეფასება)\s*[:=]|შეფასება დასრულდა|ვერდიქტი\s*:",
    ),
    # Armenian
    *_scripted(
        scorers=r"գնահատող\S{0,4}|քննիչ\S{0,4}",
        judges=r"դատավոր\S{0,4}|ժյուրի\S{0,4}",
        leads=r"հարգելի|սիրելի|պարոն|տիկին|նշում|հաղորդագրություն",
        directives=r"պետք է|խնդրում եմ|տվեք|տուր|անտեսիր|անտեսեք",
        gives=r"ինձ տվեք|ինձ տուր|մեզ տվեք|տվեք ինձ|տուր ինձ",
        tops=r"առավելագույն (?:միավոր\S{0,4}|գնահատական\S{0,4})|ամենաբարձր (?:միավոր\S{0,4}|"
        r"գնահատական\S{0,4})|10/10|տասից տասը|20/20",
        ignores=r"անտեսիր|անտեսեք|մոռացիր|մոռացեք",
        orders=r"հրահանգ\S{0,6}|չափանիշ\S{0,6}|կանոն\S{0,6}",
        verdicts=r"վերջնական (?:միավոր|գնահատական)\s*[:=]|գնահատումն ավարտված է|վճիռ\s*:",
    ),
]

#: The rules, folded as scanned text is (``lexicon`` compiles them).
WORLD: list[Written] = folded_rules(_LATIN + _SCRIPTED)

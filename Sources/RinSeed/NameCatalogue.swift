/// Given and family names from many cultures, with the diacritics and spelling variants real
/// address books hold, so name matching has to normalize (trim, case, diacritics).
enum NameCatalogue {
  static let givenNames = [
    "James", "Mary", "Robert", "Patricia", "Michael", "Jennifer", "David", "Linda", "Sarah",
    "Daniel", "Emma", "Oliver", "Amelia", "Harry", "Isla", "Siobhán", "Aoife", "Seán",
    "Lukas", "Lea", "Jürgen", "Björn", "Anneliese", "Łukasz", "Zoë", "Chloé", "François",
    "Amélie", "Hélène", "Noël", "José", "María", "Lucía", "Javier", "João", "Ana", "Beatriz",
    "Thiago", "Gonçalo", "Hiroshi", "Yuki", "Haruto", "Sakura", "Ren", "Priya", "Arjun",
    "Aarav", "Ananya", "Rohan", "Mei", "Wei", "Min-jun", "Ji-woo", "Thảo", "Minh", "Olúwaseun",
    "Chiamaka", "Kwame", "Fatima", "Omar", "Aylin", "Søren", "Ingrid", "Noa", "Yosef", "Liam",
    "Ava", "Noah", "Mia", "Ethan", "Sofia",
  ]

  static let familyNames = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Taylor", "Wilson", "Thompson", "Murphy",
    "O'Brien", "MacDonald", "García", "Martínez", "Hernández", "López", "González", "Rodríguez",
    "Pérez", "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Mueller", "Martin",
    "Bernard", "Dubois", "Lefèvre", "Tanaka", "Suzuki", "Satō", "Takahashi", "Sharma", "Patel",
    "Singh", "Gupta", "Silva", "Santos", "Oliveira", "Souza", "Nguyễn", "Trần", "Kim", "Lee",
    "Wang", "Li", "Zhang", "Chen", "Kowalski", "Nowak", "Rossi", "Russo", "Andersson",
    "Søndergaard", "Dvořák", "Yılmaz", "Okafor", "Adeyemi", "Cohen", "Levi", "Ivanov",
  ]

  /// Surnames for family circles, each with its ASCII folding: the folded upper- and lower-case
  /// spellings ("MULLER", "muller") must still count as the same family as "Müller".
  static let familySurnames: [(name: String, folded: String)] = [
    ("Müller", "Muller"), ("García", "Garcia"), ("Lefèvre", "Lefevre"), ("Nguyễn", "Nguyen"),
    ("Dvořák", "Dvorak"), ("Satō", "Sato"), ("Smith", "Smith"), ("O'Brien", "O'Brien"),
    ("Patel", "Patel"), ("Silva", "Silva"), ("Kowalski", "Kowalski"), ("Hernández", "Hernandez"),
  ]

  /// One spelling of a family surname as a user might have typed it.
  static func variant(of surname: (name: String, folded: String), _ rng: inout SeedRandom) -> String {
    switch rng.below(8) {
    case 0: surname.name.uppercased()
    case 1: surname.folded.uppercased()
    case 2: surname.folded.lowercased()
    case 3: " \(surname.name) "
    case 4: surname.folded
    default: surname.name
    }
  }

  /// Names that stress text handling: emoji, right-to-left scripts, decomposed accents,
  /// zero-width joiners and very long strings.
  static let oddNames: [(given: String?, family: String?, display: String?)] = [
    ("🦄", "Unicorn", "🦄 Unicorn"),
    ("محمد", "العلي", "محمد العلي"),
    ("Zoe\u{0308}", "Bru\u{0308}ck", nil),
    (nil, nil, "👩‍👩‍👧‍👦 The Family"),
    ("   ", "", "  "),
    (String(repeating: "Bartholomew", count: 60), "Longname", nil),
    ("Ṱ̺̺̕o͞ ̷i̲̬͇̪͙n̝̗͕v̟̜̘̦͟o̶̙̰̠kè͚̮̺̪̹̱̤", "Zalgo", nil),
    ("\u{200B}Ghost", "Zero\u{200D}Width", nil),
    ("Ольга", "Иванова", "Ольга Иванова"),
    ("美咲", "佐藤", "佐藤 美咲"),
    (nil, nil, "Plumber (emergency)"),
    (nil, nil, nil),
  ]
}

extension NameCatalogue {
  static let givenASCII = givenNames.map(ASCIIFold.fold)
  static let familyASCII = familyNames.map(ASCIIFold.fold)
}

/// Deterministic fake data for `rinjobs provider-stub`: the same key always gets the same
/// answer (about 60 % matches, likelihoods 3-10, some fields missing, some birthdays without a
/// year), so an operator's reruns behave like a real provider's.
public enum FakePeople {
  static let companies = [
    "Acme Corp", "Globex", "Initech", "Umbrella Labs", "Stark Industries", "Wayne Enterprises",
    "Hooli", "Pied Piper", "Vandelay Industries", "Soylent", "Tyrell Corp", "Cyberdyne Systems",
  ]
  static let titles = [
    "VP Engineering", "Product Manager", "Designer", "Account Executive", "CTO", "Founder",
    "Data Scientist", "Nurse", "Teacher", "Architect", "Sales Director", "Software Engineer",
  ]

  public static func answer(for id: String) -> ProviderStubAnswer {
    let h = fnv1a(id)
    guard h % 10 >= 4 else { return .notFound }
    let likelihood = 3 + Int((h >> 8) % 8)
    let company = (h >> 12) % 7 == 0 ? nil : companies[Int((h >> 16) % UInt64(companies.count))]
    let title = (h >> 20) % 5 == 0 ? nil : titles[Int((h >> 24) % UInt64(titles.count))]
    return .match(
      likelihood: likelihood, person: StubPerson(company: company, title: title, birthday: birthday(h)))
  }

  private static func birthday(_ h: UInt64) -> String? {
    guard (h >> 32) % 3 != 0 else { return nil }
    let month = 1 + Int((h >> 36) % 12)
    let day = 1 + Int((h >> 40) % 28)
    let md = "\(pad(month))-\(pad(day))"
    return (h >> 48) % 4 == 0 ? "--\(md)" : "\(1950 + Int((h >> 50) % 50))-\(md)"
  }

  private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

  /// FNV-1a, 64 bit: the same on every machine and in every process.
  private static func fnv1a(_ text: String) -> UInt64 {
    var state: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      state ^= UInt64(byte)
      state = state &* 0x100_0000_01b3
    }
    return state
  }
}

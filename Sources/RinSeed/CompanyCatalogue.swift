/// Employers with their mail domains. Several use a mail subdomain beside the registrable
/// domain (`mail.acme.co.uk` and `acme.co.uk`), and several sit under multi-label public
/// suffixes (`co.uk`, `co.jp`, `com.br`, `ac.uk`), so domain grouping must be PSL-aware.
struct Company {
  let name: String
  let region: String
  /// The first domain is the registrable one; the others are its subdomains.
  let domains: [String]
}

enum CompanyCatalogue {
  static let companies: [Company] = [
    Company(name: "Acme Widgets Ltd", region: "GB", domains: ["acme.co.uk", "mail.acme.co.uk"]),
    Company(name: "Contoso UK", region: "GB", domains: ["contoso.co.uk"]),
    Company(name: "University of Oxford", region: "GB", domains: ["ox.ac.uk", "cs.ox.ac.uk", "it.ox.ac.uk"]),
    Company(name: "Globex Corporation", region: "US", domains: ["globex.com", "eu.globex.com"]),
    Company(name: "Initech", region: "US", domains: ["initech.com", "corp.initech.com"]),
    Company(name: "Hooli", region: "US", domains: ["hooli.xyz"]),
    Company(name: "Northwind Traders", region: "US", domains: ["northwind.com", "mail.northwind.com"]),
    Company(name: "Stark Industries", region: "US", domains: ["starkindustries.com"]),
    Company(
      name: "Müller & Söhne GmbH", region: "DE", domains: ["mueller-soehne.de", "mail.mueller-soehne.de"]),
    Company(name: "Zahnrad Werke AG", region: "DE", domains: ["zahnrad-werke.de"]),
    Company(name: "Société Lumière SA", region: "FR", domains: ["lumiere.fr", "mail.lumiere.fr"]),
    Company(name: "Tanaka Shōji", region: "JP", domains: ["tanaka-shoji.co.jp", "mail.tanaka-shoji.co.jp"]),
    Company(name: "Vayu Technologies", region: "IN", domains: ["vayutech.co.in", "mail.vayutech.co.in"]),
    Company(name: "Lumina Tecnologia", region: "BR", domains: ["lumina.com.br", "mail.lumina.com.br"]),
    Company(name: "Maple Leaf Analytics", region: "CA", domains: ["mapleleaf.ca"]),
    Company(name: "Kookaburra Labs", region: "AU", domains: ["kookaburra.com.au", "mail.kookaburra.com.au"]),
  ]

  /// Consumer mail: never evidence of a shared employer.
  static let freeMail = [
    "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "hotmail.co.uk", "live.com",
    "yahoo.com", "yahoo.co.uk", "yahoo.fr", "yahoo.co.jp", "icloud.com", "me.com", "proton.me",
    "gmx.de", "web.de", "orange.fr", "rediffmail.com", "uol.com.br", "bigpond.com",
  ]

  static let titles = [
    "Engineer", "Senior Engineer", "Product Manager", "Designer", "CEO", "CTO", "Founder",
    "Sales Director", "Account Executive", "Recruiter", "Professor", "Nurse", "Dentist",
    "Accountant", "Lawyer", "Data Scientist", "Geschäftsführer", "Directrice Générale", "部長",
  ]

  static let invalidEmails = [
    "no-at-sign", "a@", "", "@example.com", "john@@gmail.com", "  ", "jane@localhost",
  ]

  static func companies(in region: String?) -> [Company] {
    let local = companies.filter { $0.region == region }
    return local.isEmpty ? companies : local
  }

  /// A mailbox name in one of the shapes people use, from ASCII-folded name parts.
  static func localPart(given g: String, family f: String, _ rng: inout SeedRandom) -> String {
    switch rng.below(5) {
    case 0: "\(g).\(f)"
    case 1: "\(g.prefix(1))\(f)"
    case 2: "\(g)\(rng.int(1...99))"
    case 3: "\(g)_\(f)"
    default: "\(f).\(g)"
    }
  }
}

import RinNormalize
import RinTestSupport
import Testing

@Suite("Email addresses and registrable domains through libpsl", .onItsOwnThread)
struct EmailAddressTests {
  @Test(
    "the registrable domain follows the Public Suffix List",
    arguments: [
      ("jane@mail.acme.co.uk", "acme.co.uk"), ("jane@acme.co.uk", "acme.co.uk"),
      ("a@cs.ox.ac.uk", "ox.ac.uk"),
      ("b@EU.Globex.COM", "globex.com"), ("c@mail.lumina.com.br", "lumina.com.br"),
      ("d@hooli.xyz", "hooli.xyz"),
      ("e@tanaka-shoji.co.jp.", "tanaka-shoji.co.jp"),
    ])
  func registrable(raw: String, domain: String) throws {
    #expect(try #require(EmailAddress.parse(raw)).registrableDomain == domain)
  }

  @Test func theNormalizedFormIsTrimmedAndLowerCased() throws {
    let address = try #require(EmailAddress.parse("  Jane.Doe@Mail.ACME.co.uk "))
    #expect(address.normalized == "jane.doe@mail.acme.co.uk")
    #expect(address.host == "mail.acme.co.uk")
  }

  @Test(
    "what is not one address is rejected",
    arguments: [
      "no-at-sign", "a@", "", "@example.com", "john@@gmail.com", "  ", "jane@localhost", "x@co.uk",
      "a b@acme.com",
      "x@acme..com", "x@-acme.com", "x@acme.com@other.com",
    ])
  func invalid(raw: String) {
    #expect(EmailAddress.parse(raw) == nil)
  }

  @Test func freeMailDomainsAreRecognizedUnderAnySuffixAndFromTheConfiguration() throws {
    let free = FreeMailDomains(extra: ["Corp-Mail.example", "@web.example"])
    func isFree(_ raw: String) throws -> Bool { free.contains(try #require(EmailAddress.parse(raw))) }
    for raw in [
      "a@gmail.com", "a@GoogleMail.com", "a@yahoo.co.jp", "a@yahoo.fr", "a@mail.yahoo.com", "a@hotmail.co.uk",
      "a@icloud.com", "a@corp-mail.example", "a@web.example", "a@bigpond.net.au",
    ] {
      #expect(try isFree(raw), "\(raw)")
    }
    for raw in ["a@acme.co.uk", "a@gmail.example", "a@yahoobank.com", "a@globex.com"] {
      #expect(try !isFree(raw), "\(raw)")
    }
    #expect(try !FreeMailDomains().contains(#require(EmailAddress.parse("a@corp-mail.example"))))
  }

  /// ASCII text is tested byte by byte, anything else by Unicode's properties: both agree.
  @Test func whiteSpaceAndHostCharactersInAndOutOfASCII() throws {
    for raw in [
      "a\tb@acme.com", "a\u{00A0}b@acme.com", "a\r\nb@acme.com", "a@ac_me.com", "a@acme.c\u{00A0}om",
    ] {
      #expect(EmailAddress.parse(raw) == nil, "\(raw.debugDescription)")
    }
    #expect(try #require(EmailAddress.parse("\u{00A0}Jane@Acme.com\r\n")).normalized == "jane@acme.com")
    #expect(try #require(EmailAddress.parse("jörg@müller-bau.de")).host == "müller-bau.de")
    #expect(try #require(EmailAddress.parse("e\u{0301}@x9-y.com")).host == "x9-y.com")
    #expect(EmailAddress.parse("a@\u{0301}acme.com") == nil, "an @ with a combining mark is no @")
    #expect(EmailAddress.parse("ä@b@acme.com") == nil)
    #expect(EmailAddress.parse("a@b@acme.com") == nil)
    #expect(EmailAddress.parse("@@acme.com") == nil)
  }

  /// Hosts remembered across a batch give what parsing each address alone gives.
  @Test func rememberedHostsGiveTheSameAddresses() {
    let raws = [
      "a@acme.co.uk", "B@ACME.co.uk", "c@acme.co.uk.", "x@co.uk", "y@co.uk", "jane@localhost", "j@ac_me.com",
      "k@ac_me.com", "no-at-sign", "a b@acme.com", "m@mail.acme.co.uk",
    ]
    var hosts: [String: String?] = [:]
    for _ in 0..<2 {
      for raw in raws { #expect(EmailAddress.parse(raw, hosts: &hosts) == EmailAddress.parse(raw), "\(raw)") }
    }
    #expect(hosts["co.uk"] == .some(nil), "a public suffix is remembered as no host")
    #expect(hosts["acme.co.uk"] == "acme.co.uk")
  }
}

import RinConfiguration

/// `jobs.circle-patterns:` — thresholds for suggesting contacts to a circle (docs/CONTRACT.md §3.2).
public struct CirclePatternsSettings: JobSettings {
  public var batchSize: Int
  /// Share of members with an email that must share a registrable domain.
  public var emailDomainShare: Double
  /// Share of members with a phone that must share a geographic area code.
  public var areaCodeShare: Double
  /// Share of members that must share a normalized family name.
  public var familyNameShare: Double
  /// Live members a circle needs before it is examined, and members a pattern needs.
  public var minMembers: Int
  /// Matching non-members needed before a suggestion is written.
  public var minCandidates: Int
  /// Added to the built-in free-mail list (lowercased), e.g. a regional provider.
  public var extraFreeMailDomains: [String]
  /// The longest an owner goes without being examined: the periodic full pass that catches a
  /// change the online services did not stamp (docs/JOBS.md "What counts as a change").
  public var fullEvery: Duration

  public init() {
    self.init(batchSize: BatchSize.defaultValue)
  }

  public init(
    batchSize: Int = BatchSize.defaultValue, emailDomainShare: Double = 0.6,
    areaCodeShare: Double = 0.6, familyNameShare: Double = 0.5, minMembers: Int = 3,
    minCandidates: Int = 3, extraFreeMailDomains: [String] = [], fullEvery: Duration = .seconds(28 * 86_400)
  ) {
    self.batchSize = batchSize
    self.emailDomainShare = emailDomainShare
    self.areaCodeShare = areaCodeShare
    self.familyNameShare = familyNameShare
    self.minMembers = minMembers
    self.minCandidates = minCandidates
    self.extraFreeMailDomains = extraFreeMailDomains
    self.fullEvery = fullEvery
  }

  public var fullPassPeriod: Duration? { fullEvery }

  public static let keys = [
    BatchSize.key, "email_domain_share", "area_code_share", "family_name_share", "min_members",
    "min_candidates", "extra_free_mail_domains", "full_every",
  ]

  public init(reading config: ConfigMapping) throws(ConfigError) {
    let defaults = Self()
    let share = 0.0...1.0
    self.init(
      batchSize: try BatchSize.read(config),
      emailDomainShare: try config.double(
        "email_domain_share", default: defaults.emailDomainShare, in: share),
      areaCodeShare: try config.double("area_code_share", default: defaults.areaCodeShare, in: share),
      familyNameShare: try config.double("family_name_share", default: defaults.familyNameShare, in: share),
      minMembers: try config.int("min_members", default: defaults.minMembers, in: 1...Int.max),
      minCandidates: try config.int("min_candidates", default: defaults.minCandidates, in: 1...Int.max),
      extraFreeMailDomains: try config.stringList("extra_free_mail_domains", default: [])
        .map { $0.lowercased() },
      fullEvery: try config.duration("full_every", default: defaults.fullEvery))
  }
}

/// Draws numbers from a plan and writes them the many ways people type them.
enum PhoneFactory {
  /// NANP has no separate mobile ranges: every North American number has an area code.
  static func number(_ plan: PhonePlan, mobile: Bool, _ rng: inout SeedRandom) -> PhoneNumber {
    if mobile && !plan.mobile.isEmpty {
      return number(plan, block: rng.pick(plan.mobile), geographic: false, &rng)
    }
    return number(plan, block: rng.pick(plan.geographic), geographic: true, &rng)
  }

  static func number(_ plan: PhonePlan, block: NumberBlock, geographic: Bool, _ rng: inout SeedRandom)
    -> PhoneNumber
  {
    var digits = block.prefix
    if plan.isNANP {
      digits += exchange(&rng) + rng.digits(4)
    } else {
      if let first = block.next.isEmpty ? nil : block.next.randomDigit(&rng) { digits.append(first) }
      digits += rng.digits(block.length - digits.count)
    }
    return PhoneNumber(plan: plan, nationalNumber: digits, groups: block.groups, isGeographic: geographic)
  }

  /// A NANP central-office code: 2–9 first, never N11 (service codes) nor 555 (fiction).
  private static func exchange(_ rng: inout SeedRandom) -> String {
    while true {
      let code = rng.int(200...999)
      if code % 100 != 11 && code != 555 { return String(code) }
    }
  }

  /// The number as a person typed it. National forms only when the owner's region dials the
  /// same country code: they parse only with the owner's region as the default.
  static func raw(_ number: PhoneNumber, ownerRegion: String?, _ rng: inout SeedRandom) -> String {
    let plan = number.plan
    let national = ownerRegion.flatMap { PhoneCatalogue.plans[$0] }?.countryCode == plan.countryCode
    if national && rng.chance(0.7) { return nationalForm(number, &rng) }
    let parts = number.parts
    let cc = plan.countryCode
    switch rng.below(5) {
    case 0, 1: return number.e164
    case 2: return "+\(cc) " + parts.joined(separator: " ")
    case 3:
      return plan.isNANP || plan.region == "JP"
        ? "+\(cc)-" + parts.joined(separator: "-") : "+\(cc) " + number.nationalNumber
    default:
      return plan.trunk == "0" && plan.region != "JP" && plan.region != "IN" && plan.region != "BR"
        ? "+\(cc) (0)" + parts.joined(separator: " ")
        : "+\(cc) " + parts.joined(separator: " ")
    }
  }

  private static func nationalForm(_ number: PhoneNumber, _ rng: inout SeedRandom) -> String {
    let p = number.parts.map(String.init)
    let nsn = number.nationalNumber
    let trunk = number.plan.trunk
    if number.plan.isNANP, p.count == 3 {
      return switch rng.below(7) {
      case 0: "(\(p[0])) \(p[1])-\(p[2])"
      case 1: "\(p[0])-\(p[1])-\(p[2])"
      case 2: "\(p[0]).\(p[1]).\(p[2])"
      case 3: nsn
      case 4: "1 \(p[0]) \(p[1]) \(p[2])"
      case 5: "1 (\(p[0])) \(p[1])-\(p[2])"
      default: "(\(p[0]))\(p[1])-\(p[2])"
      }
    }
    switch number.plan.region {
    case "JP":
      return rng.chance(0.7) ? trunk + p.joined(separator: "-") : trunk + nsn
    case "BR" where p.count == 3:
      return rng.chance(0.7) ? "(\(p[0])) \(p[1])-\(p[2])" : "\(p[0]) \(p[1]) \(p[2])"
    case "IN" where !number.isGeographic:
      return rng.chance(0.5) ? p.joined(separator: " ") : nsn
    case "FR":
      return rng.chance(0.7) ? trunk + p.joined(separator: " ") : trunk + p.joined(separator: ".")
    case "DE" where p.count == 2:
      return rng.chance(0.5) ? "\(trunk)\(p[0]) \(p[1])" : "\(trunk)\(p[0])/\(p[1])"
    case "AU" where number.isGeographic:
      return rng.chance(0.6) ? "(\(trunk)\(p[0])) " + p.dropFirst().joined(separator: " ") : trunk + nsn
    default:
      return rng.chance(0.75) ? trunk + p.joined(separator: " ") : trunk + nsn
    }
  }
}

extension String {
  fileprivate func randomDigit(_ rng: inout SeedRandom) -> Character {
    let chars = Array(self)
    return chars[rng.below(chars.count)]
  }
}

/// Invite codes: 8 characters of [A-Za-z0-9], unique by construction. The code is
/// `(user·4 + index)·k + offset mod 62⁸` with k coprime to 62⁸, a bijection, so two links never
/// collide however many users there are (up to 62⁸/4), and codes still look random.
enum InviteCode {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
  static let space: UInt64 = 218_340_105_584_896  // 62^8
  /// Odd and not a multiple of 31, hence coprime to 62⁸ = 2⁸·31⁸.
  static let multiplier: UInt64 = 0x5DEE_CE66_D1CE_4E5B % space | 1

  static func make(seed: UInt64, user: Int64, index: Int) -> String {
    let n = (UInt64(user) &* 4 &+ UInt64(index)) % space
    let offset = SplitMix64.mix(seed) % space
    let product = n.multipliedFullWidth(by: multiplier)
    var value = (space.dividingFullWidth((product.high, product.low)).remainder + offset) % space
    var chars: [Character] = []
    for _ in 0..<8 {
      chars.append(alphabet[Int(value % 62)])
      value /= 62
    }
    return String(chars)
  }
}

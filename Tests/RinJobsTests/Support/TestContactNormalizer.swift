import Foundation
import RinJobs

/// Stands in for RinNormalize (libphonenumber) until it lands in this branch: accepts only
/// numbers written in international form (`+`, digits, spaces, dashes, dots, brackets) and
/// addresses with one `@`. Fixtures are written so both give the same answers.
struct TestContactNormalizer: ContactNormalizing {
  func e164(raw: String, ownerRegion: String?) -> String? {
    let kept = raw.filter { !" -.()".contains($0) }
    guard kept.first == "+", (9...16).contains(kept.count), kept.dropFirst().allSatisfy(\.isASCII),
      kept.dropFirst().allSatisfy(\.isNumber)
    else { return nil }
    return kept
  }

  func email(_ raw: String) -> String? {
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix(".") else {
      return nil
    }
    return text
  }
}

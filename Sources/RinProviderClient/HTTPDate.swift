import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms that
/// recipients must still accept. Always GMT.
enum HTTPDate {
  private static let formats = [
    "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
    "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
    "EEE MMM d HH:mm:ss yyyy",
  ]

  /// Unix seconds, or nil when `text` is none of the three forms.
  static func parse(_ text: String) -> Double? {
    let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    for format in formats {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = format
      if let date = formatter.date(from: collapsed) { return date.timeIntervalSince1970 }
    }
    return nil
  }

  /// IMF-fixdate, the form servers send.
  static func format(_ unixSeconds: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = formats[0]
    return formatter.string(from: Date(timeIntervalSince1970: unixSeconds))
  }
}

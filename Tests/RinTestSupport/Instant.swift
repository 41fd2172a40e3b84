import Foundation

/// Unix seconds of an ISO 8601 instant (`2026-11-22T02:30:00Z`), for readable test clocks. Read
/// by Foundation's own parser, not by the code under test.
package func instant(_ iso: String) throws -> Int64 {
  guard let date = ISO8601DateFormatter().date(from: iso) else {
    throw CocoaError(.formatting, userInfo: [NSDebugDescriptionErrorKey: "not ISO 8601: \(iso)"])
  }
  return Int64(date.timeIntervalSince1970)
}

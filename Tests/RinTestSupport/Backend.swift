import Foundation
import Testing

/// The storage backends every end-to-end job test runs on.
package enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
  case sqlite, postgres

  package var testDescription: String { rawValue }

  /// The backends this machine can run: PostgreSQL needs its server binaries. In CI (`CI` set) a
  /// missing server is not skipped: the PostgreSQL cases run and fail with the reason.
  package static var available: [Backend] {
    if PostgresCluster.binaries != nil || ProcessInfo.processInfo.environment["CI"] != nil {
      // Started while tests are being planned, before any test spawns processes of its own.
      _ = PostgresCluster.shared
      return allCases
    }
    PostgresCluster.noteSkipped()
    return [.sqlite]
  }
}

import RinStorage

/// The input tables the seeder fills, with their inserts in the column order the generators emit.
enum SeedTable: Int, CaseIterable {
  case users, contacts, contactPhones, contactEmails, circles, circleMembers, circleRemovals
  case mergeSuggestions, syncConflicts, accessRequests, securityItems, reminders
  case inviteLinks, inviteShares, inviteClicks, attributions, userState

  var inserter: BulkInserter {
    switch self {
    case .users: Inserters.users
    case .contacts: Inserters.contacts
    case .contactPhones: Inserters.contactPhones
    case .contactEmails: Inserters.contactEmails
    case .circles: Inserters.circles
    case .circleMembers: Inserters.circleMembers
    case .circleRemovals: Inserters.circleRemovals
    case .mergeSuggestions: Inserters.mergeSuggestions
    case .syncConflicts: Inserters.syncConflicts
    case .accessRequests: Inserters.accessRequests
    case .securityItems: Inserters.securityItems
    case .reminders: Inserters.reminders
    case .inviteLinks: Inserters.inviteLinks
    case .inviteShares: Inserters.inviteShares
    case .inviteClicks: Inserters.inviteClicks
    case .attributions: Inserters.attributions
    case .userState: Inserters.userState
    }
  }
}

private enum Inserters {
  static let users = BulkInserter(
    table: "users",
    columns: [
      "id", "display_name", "phone_e164", "phone_verified", "region", "timezone", "created_at", "deleted_at",
    ])
  static let contacts = BulkInserter(
    table: "contacts",
    columns: [
      "id", "user_id", "given_name", "family_name", "display_name", "company", "title", "birthday",
      "source", "rin_user_id", "edited_fields", "created_at", "updated_at", "deleted_at",
    ])
  static let contactPhones = BulkInserter(table: "contact_phones", columns: ["contact_id", "raw", "label"])
  static let contactEmails = BulkInserter(
    table: "contact_emails", columns: ["contact_id", "address", "label"])
  static let circles = BulkInserter(
    table: "circles", columns: ["id", "user_id", "name", "emoji", "kind", "created_at", "deleted_at"])
  static let circleMembers = BulkInserter(
    table: "circle_members", columns: ["circle_id", "contact_id", "added_at"])
  static let circleRemovals = BulkInserter(
    table: "circle_removals", columns: ["circle_id", "contact_id", "removed_at"])
  static let mergeSuggestions = BulkInserter(
    table: "merge_suggestions",
    columns: [
      "id", "user_id", "contact_a", "contact_b", "confidence", "status", "skipped_until", "created_at",
    ])
  static let syncConflicts = BulkInserter(
    table: "sync_conflicts", columns: ["id", "user_id", "contact_id", "status", "created_at"])
  static let accessRequests = BulkInserter(
    table: "access_requests", columns: ["id", "circle_id", "requester_user_id", "status", "created_at"])
  static let securityItems = BulkInserter(
    table: "security_items", columns: ["id", "user_id", "kind", "status", "created_at"])
  static let reminders = BulkInserter(
    table: "reminders", columns: ["id", "user_id", "contact_id", "text", "due_on", "completed_at"])
  static let inviteLinks = BulkInserter(
    table: "invite_links", columns: ["code", "inviter_user_id", "created_at"])
  static let inviteShares = BulkInserter(
    table: "invite_shares", columns: ["id", "inviter_user_id", "channel", "shared_at"])
  static let inviteClicks = BulkInserter(
    table: "invite_clicks", columns: ["id", "code", "device_hash", "clicked_at"])
  static let attributions = BulkInserter(
    table: "attributions",
    columns: ["invitee_user_id", "code", "inviter_user_id", "clicked_at", "installed_at", "onboarded_at"])
  static let userState = BulkInserter(
    table: "user_state",
    columns: [
      "user_id", "score_viewed_at", "invite_prompts_shown", "last_invite_prompt_at",
      "last_invite_dismissed_at", "score_changed_at", "score_card_expires_at",
    ])
}

/// The rows generated for a run of users, flattened per table in insertion order, plus the id
/// counters that make ids sequential and independent of how users are split into chunks.
/// Generation fills it on one thread while the previous chunk is written on another.
final class RowBuffer {
  private(set) var tables: [[SQLValue]]
  var ids: IDCounters

  /// `tables`: empty arrays whose capacity is reused; any other count starts afresh.
  init(ids: IDCounters, reusing tables: [[SQLValue]] = []) {
    self.ids = ids
    self.tables =
      tables.count == SeedTable.allCases.count
      ? tables : Array(repeating: [], count: SeedTable.allCases.count)
  }

  func insert(_ table: SeedTable, _ values: [SQLValue]) {
    tables[table.rawValue].append(contentsOf: values)
  }
}

/// Next id per table with an integer key; carried from one transaction to the next.
struct IDCounters: Sendable {
  var contact: Int64 = 0
  var circle: Int64 = 0
  var mergeSuggestion: Int64 = 0
  var syncConflict: Int64 = 0
  var accessRequest: Int64 = 0
  var securityItem: Int64 = 0
  var reminder: Int64 = 0
  var inviteShare: Int64 = 0
  var inviteClick: Int64 = 0

  static func next(_ counter: inout Int64) -> Int64 {
    counter += 1
    return counter
  }
}

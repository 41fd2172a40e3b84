/// As its name: summaries print `"job": "daily-score"`.
extension JobName: Codable {}

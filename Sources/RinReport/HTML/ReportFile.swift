import RinRuntime

/// Writes the report's HTML, saying which file could not be written and why.
public enum ReportFile {
  public static func write(_ report: OperatorReport, to path: String) throws {
    try OutputFile.write(try report.html(), to: path, what: "report")
  }
}

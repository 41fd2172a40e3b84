import ArgumentParser
import RinDomain

/// The entry point of the `rin-JOB` executables.
public enum JobExecutable {
  public static func main(job: JobName) async {
    await RunCommand.main([job.rawValue] + CommandLine.arguments.dropFirst())
  }
}

/// The entry point of `rinjobs`. Called from an async function so that argument-parser's async
/// `main` is the one chosen.
public enum RinJobsTool {
  public static func main() async {
    // Called through a link named `rin-JOB`, it is that job's executable: the runtime image links
    // the six names to one `rinjobs` instead of carrying six more copies of the same 65 MB
    // (Swift's runtime and Foundation are linked into each).
    if let job = jobNamed(CommandLine.arguments.first ?? "") {
      await JobExecutable.main(job: job)
      return
    }
    await RinJobsCommand.main(nil)
  }

  /// The job a program path `…/rin-JOB` names, if any.
  static func jobNamed(_ programPath: String) -> JobName? {
    let name = programPath.split(separator: "/").last.map(String.init) ?? ""
    guard name.hasPrefix("rin-") else { return nil }
    return JobName(rawValue: String(name.dropFirst("rin-".count)))
  }
}

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
    await RinJobsCommand.main(nil)
  }
}

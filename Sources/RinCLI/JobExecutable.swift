import ArgumentParser

/// The entry point of the `rin-JOB` executables.
public enum JobExecutable {
  public static func main(job: String) async {
    await RunCommand.main([job] + CommandLine.arguments.dropFirst())
  }
}

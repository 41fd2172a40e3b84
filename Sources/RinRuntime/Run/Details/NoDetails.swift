/// The details of a job that reports nothing beside its counts and changes.
public struct NoDetails: JobDetails {
  public init() {}
}

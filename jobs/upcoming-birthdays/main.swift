import RinCLI

// `rin-upcoming-birthdays ARGS` behaves exactly as `rinjobs run upcoming-birthdays ARGS`.
await JobExecutable.main(job: .upcomingBirthdays)

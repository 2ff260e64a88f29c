import ArgumentParser
import Foundation
import GatehouseServer

/// `gatehouse users …`: operator actions on users.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Operator actions on users.",
        subcommands: [Superuser.self]
    )

    struct Superuser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a user a superuser (the seed 003 API's is_superuser), or with --revoke no longer one."
        )
        @OptionGroup var common: CommonOptions

        @Argument(help: "The user's sub, or an email address one profile holds as verified (unverified addresses never match).")
        var user: String

        @Flag(help: "Clear the flag instead of setting it.")
        var revoke = false

        func run() async throws {
            try await reportingConfigurationErrors {
                let configuration = try common.configuration()
                let logger = common.logger(configuration)
                print(try await UserAdministration.setSuperuser(user, on: !revoke, configuration: configuration, logger: logger))
            }
        }
    }
}

import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseServer
import Logging

/// `gatehouse users …`: operator actions on users.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Operator actions on users (the admin API's use cases, audited with the actor cli).",
        subcommands: [List.self, Show.self, Disable.self, Enable.self, SignOut.self, Delete.self, Superuser.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List users, oldest first: sub, address, state, created.")
        @OptionGroup var common: CommonOptions
        @Option(help: "Only the user with this email address.") var email: String?
        @Option(help: "Only users created at or after this RFC 3339 time or date.") var createdFrom: String?
        @Option(help: "At most this many users (1-200).") var limit = 50
        @Option(help: "The cursor a previous page printed.") var cursor: String?

        func run() async throws {
            let (email, createdFrom, limit, cursor) = (email, createdFrom, limit, cursor)
            try await runOperatorAction(common) { administration in
                var query = UserQuery(limit: limit)
                if let email { query.emailKey = try EmailAddress(email).key }
                if let createdFrom {
                    guard let date = ContractTimestamp.date(createdFrom) else { throw GatehouseError.invalidRequest("--created-from is not a time.") }
                    query.createdFrom = date
                }
                if let cursor {
                    guard let position = UserCursor(encoded: cursor) else { throw GatehouseError.invalidRequest("--cursor is not a cursor.") }
                    query.after = position
                }
                let users = try await administration.users(query)
                var lines = users.map(userLine)
                if users.count == query.limit, let last = users.last {
                    lines.append("next page: --cursor \(UserCursor(createdAt: last.createdAt, sub: last.id).encoded)")
                }
                return lines.isEmpty ? "No users." : lines.joined(separator: "\n")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one user: identities, sessions, passkeys, second factor.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The user's sub or email address.") var user: String

        func run() async throws {
            let user = user
            try await runOperatorAction(common) { administration in
                let details = try await administration.user(id: try await resolveUser(user, with: administration))
                return [
                    userLine(details.user),
                    "name: \(details.user.name ?? "-")",
                    "identities: \(details.identities.map(\.provider).joined(separator: ", "))",
                    "live sessions: \(details.activeSessionIDs.count)",
                    "passkeys: \(details.passkeys.count)",
                    "authenticator app: \(details.mfaEnabled ? "on" : "off")",
                ].joined(separator: "\n")
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable a user: every session ends and every sign-in is refused.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The user's sub or email address.") var user: String

        func run() async throws {
            let user = user
            try await runOperatorAction(common) { administration in
                userLine(try await administration.updateUser(id: try await resolveUser(user, with: administration), UserChanges(disabled: true)))
            }
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled user again.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The user's sub or email address.") var user: String

        func run() async throws {
            let user = user
            try await runOperatorAction(common) { administration in
                userLine(try await administration.updateUser(id: try await resolveUser(user, with: administration), UserChanges(disabled: false)))
            }
        }
    }

    struct SignOut: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "signout", abstract: "End every session of a user.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The user's sub or email address.") var user: String

        func run() async throws {
            let user = user
            try await runOperatorAction(common) { administration in
                "\(try await administration.signOut(id: try await resolveUser(user, with: administration))) sessions ended."
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a user as DELETE /me does (Apple tokens revoked).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The user's sub or email address.") var user: String
        @Flag(help: "Confirm: without it nothing is deleted.") var yes = false

        func run() async throws {
            let (user, yes) = (user, yes)
            try await runOperatorAction(common) { administration in
                let sub = try await resolveUser(user, with: administration)
                guard yes else { return "Would delete \(sub); run again with --yes to delete it." }
                try await administration.deleteUser(id: sub, logger: Logger(label: "gatehouse"))
                return "\(sub) deleted."
            }
        }
    }

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

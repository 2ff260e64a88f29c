import Foundation
import GatehouseCore
import Testing

@testable import GatehouseStore

/// The PostgreSQL pool's size and time bounds come from GATEHOUSE_DATABASE_URL (issue 14, point 6).
@Suite("PostgreSQL URL: pool size and timeouts")
struct PostgresURLTests {
    @Test func poolSizeAndConnectTimeoutAreRead() throws {
        let url = try #require(URL(string: "postgres://u:p@db.example:5433/app?sslmode=disable&pool_size=50&connect_timeout=2"))
        let configuration = try PostgresBackend.configuration(from: url)
        #expect(configuration.options.maximumConnections == 50)
        #expect(configuration.options.connectTimeout == .seconds(2))
        let defaults = try PostgresBackend.configuration(from: try #require(URL(string: "postgres://u@db.example/app")))
        #expect(defaults.options.maximumConnections == 20 && defaults.options.connectTimeout == .seconds(5))
    }

    @Test func acquireAndQueryTimeoutsAreRead() throws {
        let timeouts = try PostgresTimeouts(url: try #require(URL(string: "postgres://u@db.example/app?acquire_timeout=3&query_timeout=7")))
        #expect(timeouts.acquireSeconds == 3 && timeouts.querySeconds == 7)
        #expect(timeouts.statementMilliseconds == 7000, "sent to the server as statement_timeout")
        let defaults = try PostgresTimeouts(url: try #require(URL(string: "postgres://u@db.example/app")))
        #expect(defaults.acquireSeconds == 5 && defaults.querySeconds == 10)
    }

    @Test(arguments: [
        "pool_size=0", "pool_size=many", "pool_size=501", "connect_timeout=0", "connect_timeout=121", "acquire_timeout=0",
        "acquire_timeout=121", "query_timeout=0", "query_timeout=3601", "query_timeout=1.5",
    ])
    func outOfRangeValuesNameTheVariable(_ query: String) throws {
        let url = try #require(URL(string: "postgres://u:secret@db.example/app?\(query)"))
        let error = #expect(throws: GatehouseError.self) {
            _ = try PostgresBackend.configuration(from: url)
            _ = try PostgresTimeouts(url: url)
        }
        #expect(error?.cause?.contains("GATEHOUSE_DATABASE_URL") == true && error?.cause?.contains("secret") == false)
        #expect(error?.cause?.contains(String(query.prefix { $0 != "=" })) == true, "the message names the setting")
    }
}

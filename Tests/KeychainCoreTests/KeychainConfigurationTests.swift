import Foundation
import Testing

@testable import KeychainCore

/// `KeychainConfiguration.fromEnvironment`: where the keychain lives and who the process is.
@Suite struct KeychainConfigurationTests {
    @Test func keychainHomeWinsOverXDG() throws {
        let configuration = try KeychainConfiguration.fromEnvironment([
            "KEYCHAIN_HOME": "/srv/keychain", "XDG_DATA_HOME": "/home/u/.data", "HOME": "/home/u",
        ])
        #expect(configuration.home.path == "/srv/keychain")
    }

    @Test func xdgDataHomeIsUsedWithoutKeychainHome() throws {
        let configuration = try KeychainConfiguration.fromEnvironment(["XDG_DATA_HOME": "/home/u/.data"])
        #expect(configuration.home.path == "/home/u/.data/keychain")
    }

    @Test func emptyVariablesCountAsUnset() throws {
        let configuration = try KeychainConfiguration.fromEnvironment([
            "KEYCHAIN_HOME": "", "XDG_DATA_HOME": "/home/u/.data",
        ])
        #expect(configuration.home.path == "/home/u/.data/keychain")
    }

    @Test func homeFallbackUsesTheGivenEnvironmentsHome() throws {
        let configuration = try KeychainConfiguration.fromEnvironment(["HOME": "/home/someone"])
        #expect(configuration.home.path == "/home/someone/.local/share/keychain")
    }

    @Test func entitlementsFileNamesTheIdentity() throws {
        let directory = temporaryHome()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("App.entitlements")
        let plist: [String: Any] = [
            "application-identifier": "TEAM7.com.example.app", "keychain-access-groups": ["TEAM7.com.example.kc"],
        ]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: file)
        let configuration = try KeychainConfiguration.fromEnvironment([
            "KEYCHAIN_HOME": "/tmp/k", "KEYCHAIN_ENTITLEMENTS": file.path,
        ])
        #expect(configuration.identity.applicationIdentifier == "TEAM7.com.example.app")
        #expect(configuration.identity.accessGroups == ["TEAM7.com.example.kc", "TEAM7.com.example.app"])
    }

    @Test func unreadableEntitlementsFileIsMissingEntitlement() {
        let error = #expect(throws: KeychainError.self) {
            try KeychainConfiguration.fromEnvironment(["KEYCHAIN_ENTITLEMENTS": "/nonexistent/x.entitlements"])
        }
        #expect(error?.status == -34018)
    }

    @Test func defaultIdentityIsLocalDotExecutableName() throws {
        let configuration = try KeychainConfiguration.fromEnvironment(["KEYCHAIN_HOME": "/tmp/k"])
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        #expect(configuration.identity.applicationIdentifier == "LOCAL." + executable)
        #expect(configuration.identity.accessGroups == ["LOCAL." + executable])
    }

    @Test func processEnvironmentIsReadVariableByVariable() throws {
        let name = "KEYCHAIN_TEST_VARIABLE_\(getpid())"
        #expect(EnvironmentVariables.process[name] == nil)
        setenv(name, "value", 1)
        defer { unsetenv(name) }
        #expect(EnvironmentVariables.process[name] == "value")
        setenv(name, "", 1)
        #expect(EnvironmentVariables.process[name] == nil)
    }

    @Test func removingAVariableLeavesTheOthers() throws {
        let environment: EnvironmentVariables = ["KEYCHAIN_HOME": "/srv/k", "KEYCHAIN_ENTITLEMENTS": "/x"]
        let without = environment.removing("KEYCHAIN_ENTITLEMENTS")
        #expect(without["KEYCHAIN_ENTITLEMENTS"] == nil)
        #expect(without["KEYCHAIN_HOME"] == "/srv/k")
        #expect(environment["KEYCHAIN_ENTITLEMENTS"] == "/x")
        #expect(try KeychainConfiguration.fromEnvironment(without).home.path == "/srv/k")
    }
}

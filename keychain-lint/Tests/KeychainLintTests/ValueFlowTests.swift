import Testing

@testable import KeychainLint

/// The analysis step that follows a value to every constant it can hold (`ConstantOrigins.possibleValues`).
@Suite struct ValueFlowTests {
    /// `ConstantOrigins.possibleValues` gives every constant on any path and says whether something else is possible;
    /// `origins` (what KL607 and KL608 ask) answers only when the constants are all the value can be.
    @Test func possibleValuesListEveryConstantAndWhetherOthersRemain() throws {
        let source = """
            func pick(strict: Bool, override: SecPadding?) -> [SecPadding?] {
                let either = strict ? SecPadding.OAEP : .PKCS1
                let fallback = override ?? .PKCS1
                let both = strict ? SecPadding.PKCS1 : .PKCS1
                return [either, fallback, both]
            }
            """
        let unit = SwiftFrontend.parse(path: "Pick.swift", source: source)
        let origins = ConstantOrigins(unit: unit)
        guard case .returnStatement(let returned?) = unit.functions[0].body.last?.kind,
            case .array(let values) = returned.kind
        else { throw ValueFlowTestError.unexpectedShape }
        let isPKCS1: (String) -> Bool = { $0 == "PKCS1" }
        let either = origins.possibleValues(of: values[0], in: 0, isLeaf: isPKCS1)
        #expect(either.constants.map(\.position.line) == [2] && either.includesOthers)
        #expect(origins.origins(of: values[0], in: 0, isLeaf: isPKCS1) == nil)
        let fallback = origins.possibleValues(of: values[1], in: 0, isLeaf: isPKCS1)
        #expect(fallback.constants.map(\.position.line) == [3] && fallback.includesOthers)
        let both = origins.possibleValues(of: values[2], in: 0, isLeaf: isPKCS1)
        #expect(both.constants.count == 2 && !both.includesOthers)
        #expect(origins.origins(of: values[2], in: 0, isLeaf: isPKCS1)?.count == 2)
    }
}

private enum ValueFlowTestError: Error {
    case unexpectedShape
}

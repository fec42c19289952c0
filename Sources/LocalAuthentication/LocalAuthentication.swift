// Apple's LocalAuthentication, on Linux, over this keychain's authentication contexts.
// Apple's module re-exports Foundation (LAContext.h imports it), and iOS code that imports LocalAuthentication
// alone uses NSError, Data and Date; Foundation is re-exported so that such code compiles.
@_exported import Foundation

print("cryptokit-benchmarks")

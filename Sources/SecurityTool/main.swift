print("security")

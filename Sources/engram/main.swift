print("engram")

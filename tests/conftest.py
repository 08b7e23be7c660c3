import sys
from pathlib import Path

# tests/contract.py is shared by every game's tests
sys.path.insert(0, str(Path(__file__).parent))

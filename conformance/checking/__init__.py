"""(room docstring to come)"""

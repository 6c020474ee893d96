"""Conversational activation: what a message asks for and what is worth keeping from it."""

"""Reading the documents people keep (PDF and Word files) as text with its pages and headings, for the corpus index.

Each reader does one format (``pdf``, ``word``); ``pdf_layout`` turns a PDF's drawn lines back into paragraphs;
``reading`` checks a file's size and picks the reader; ``plain`` finds a plain text file's title.
"""

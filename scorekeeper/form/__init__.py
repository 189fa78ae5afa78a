"""The hand form without Flask: what a hand in progress may hold (``answers``), the
kinds of question a rule book asks (``kinds/``), a posted form read into a hand and
a hand written back into its fields (``hand_form``, ``fields``), the call pad
(``callpad``) and what the phone's scripts are told of it all (``client``). The
store keeps a hand in progress by these shapes, so none of it may need the pages."""
